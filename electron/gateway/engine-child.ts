/**
 * The engine's own process entry (built to build/engine/engine-child.mjs). The core
 * forks it — child_process.fork from the core's own process; a utilityProcess's parentPort is
 * still understood, for a shell that forks it that way — sends one `start` message (data folder, port, vault key), and gets `ready` with the
 * credentials back; from then on the core talks to it over HTTP like any client.
 * It stops on `stop`, and also when its parent goes away (no orphan engines).
 */
import { startEngine, type RunningEngine } from './engine';
import type { FromEngine, ToEngine } from './engine-process-protocol';

interface ParentPort {
  on(event: 'message', fn: (e: { data: unknown }) => void): void;
  postMessage(msg: unknown): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

function send(msg: FromEngine): void {
  if (parentPort) parentPort.postMessage(msg);
  else process.send?.(msg);
}

function onMessage(fn: (msg: ToEngine) => void): void {
  if (parentPort) parentPort.on('message', (e) => fn(e.data as ToEngine));
  else process.on('message', (m) => fn(m as ToEngine));
}

let engine: RunningEngine | undefined;
let stopping = false;

async function stop(code = 0): Promise<void> {
  if (stopping) return;
  stopping = true;
  try {
    await engine?.close();
  } finally {
    send({ type: 'stopped' });
    process.exit(code);
  }
}

onMessage((msg) => {
  if (msg.type === 'start' && !engine) {
    startEngine({
      dataDir: msg.dataDir,
      port: msg.port,
      ...(msg.vaultKey ? { vaultKey: Buffer.from(msg.vaultKey, 'base64') } : {}),
      log: (line) => console.error(`[engine] ${line}`),
    }).then(
      (e) => {
        engine = e;
        send({ type: 'ready', credentials: e.credentials });
      },
      (err: unknown) => {
        send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
        process.exit(1);
      },
    );
  } else if (msg.type === 'stop') {
    void stop();
  }
});

// child_process.fork: the IPC channel closes when the parent dies.
process.on('disconnect', () => void stop());
process.on('SIGTERM', () => void stop());
// Ctrl+C in a terminal reaches the whole process group: the parent decides when the engine
// stops (it sends `stop`), so the engine does not die half-way on its own.
process.on('SIGINT', () => {});

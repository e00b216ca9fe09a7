/**
 * The core's own process (built to build/core/core-child.mjs): Electron main forks it as a
 * utilityProcess, the node host with child_process.fork (core-process.ts). It waits for one
 * `start` (options, origins, what the shell offers), starts the core, and from then on answers
 * calls through the dispatcher beside the handlers, sends the core's events with the caller each
 * is for, and asks the shell through the shell port for what only main can do (shell-port.ts).
 *
 * The engine is forked from here with child_process (engine-supervisor.ts forkEngine): a
 * utilityProcess cannot fork another utilityProcess (a main-only API), and asking main to fork
 * it for us would widen the shell port into a process manager; under Electron the fork runs
 * Electron's binary as plain Node (ELECTRON_RUN_AS_NODE). The engine stops when this process goes.
 *
 * It closes cleanly on `stop` (and on SIGTERM): the core's close() stops the engine and
 * checkpoints SQLite. Ctrl+C in a terminal reaches the whole process group, so SIGINT is left to
 * the shell, which sends `stop`. A shell that dies without a word (the node host killed) closes
 * the IPC pipe: the core then ends at once, as it would have inside the killed host — every
 * commit is already on disk (synchronous = FULL), and no core outlives its shell.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fail } from '../../shared/result';
import { remoteGatewayFromEnv, startCore, storeTimingFromEnv, type Core } from '../core/app-core';
import { forkEngine } from '../core/gateway/engine-supervisor';
import type { Dispatch } from '../ipc/dispatcher';
import { dispatcherOf } from './core-link';
import { CORE_PROCESS_MESSAGES } from './core-process';
import type { CoreStart, FromCore, ToCore } from './core-protocol';
import { shellPortClient, type ShellPortClient } from './shell-port';

interface ParentPort {
  on(event: 'message', fn: (e: { data: unknown }) => void): void;
  postMessage(msg: unknown): void;
}

/** Electron's utilityProcess gives the child a parentPort; child_process.fork gives it process.send. */
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

function send(msg: FromCore): void {
  if (parentPort) parentPort.postMessage(msg);
  else if (process.connected) process.send!(msg);
}

/** Sends the last word, then exits (fork's send is asynchronous: the message must leave first). */
function sendThenExit(msg: FromCore, code: number): void {
  if (parentPort) {
    parentPort.postMessage(msg);
    setImmediate(() => process.exit(code));
  } else if (process.connected) process.send!(msg, () => process.exit(code));
  else process.exit(code);
}

/** The report reader's worker, built beside this entry (build/core/report-reader.mjs; reports/report-reader.ts). */
const REPORT_READER = fileURLToPath(new URL('./report-reader.mjs', import.meta.url));

let core: Core | undefined;
let dispatch: Dispatch | undefined;
let port: ShellPortClient | undefined;
let starting: Promise<void> | undefined;
let stopping = false;

async function start(o: CoreStart): Promise<void> {
  try {
    port = shellPortClient(o.offer, send);
    core = await startCore({
      dataDir: o.dataDir,
      shell: o.shell,
      remote: remoteGatewayFromEnv(),
      ...storeTimingFromEnv(),
      ...(o.engineEntry ? { engineProcess: forkEngine(o.engineEntry) } : {}),
      // Missing only where the core was bundled alone (a tool): reports then read on this thread.
      ...(existsSync(REPORT_READER) ? { reportReaderEntry: REPORT_READER } : {}),
      ...(o.skipFirstRun ? { skipFirstRun: true } : {}),
      ...(o.idleLockMs ? { idleLockMs: o.idleLockMs } : {}),
      ...(o.gatewayTimeoutMs ? { gatewayTimeoutMs: o.gatewayTimeoutMs } : {}),
      ...(port.printReceipt ? { printReceipt: port.printReceipt } : {}),
      ...(port.printReport ? { printReport: port.printReport } : {}),
      ...(port.openExternal ? { openExternal: port.openExternal } : {}),
      ...(port.secrets ? { secrets: port.secrets } : {}),
    });
    dispatch = dispatcherOf(core, o.allowedOrigins, (channel, err) => console.error(`[ipc] ${channel} failed:`, err instanceof Error ? err.message : err));
    core.events.subscribe((event, payload, to) => send(to === undefined ? { type: 'event', event, payload } : { type: 'event', event, payload, to }));
    send({ type: 'ready', status: core.status() });
  } catch (err) {
    sendThenExit({ type: 'failed', message: err instanceof Error ? err.message : String(err) }, 1);
  }
}

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  try {
    await starting;
    await core?.close();
  } finally {
    port?.close();
    process.exit(0);
  }
}

function onMessage(msg: ToCore): void {
  switch (msg.type) {
    case 'start':
      starting ??= start(msg.options);
      break;
    case 'call': {
      const { id } = msg;
      if (!dispatch || stopping) {
        send({ type: 'result', id, result: fail('internal', CORE_PROCESS_MESSAGES.gone) });
        break;
      }
      void dispatch(msg.channel, msg.sender, msg.arg).then((result) => send({ type: 'result', id, result }));
      break;
    }
    case 'disconnect':
      core?.disconnect(msg.callerId);
      break;
    case 'stop':
      void stop();
      break;
    case 'shell-answer':
      port?.answer(msg);
      break;
  }
}

if (parentPort) parentPort.on('message', (e) => onMessage(e.data as ToCore));
else process.on('message', (m) => onMessage(m as ToCore));

// child_process.fork: the pipe closes when the host dies. The core ends with it (see above).
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => {});

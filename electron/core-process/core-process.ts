/**
 * The shell's side of the core in its own process (issue 22, point 4). Electron main and the
 * node host keep what is theirs — windows, printing, dialogs and safeStorage; the HTTP server,
 * the static renderer and the WebSocket bridge with its origin and token checks — and the core
 * (its SQLite, the offline queue, the device drivers, the reports, the engine's supervisor) runs
 * in a process of its own, so nothing it does in one go can hold up a window or a socket.
 *
 * `startCoreProcess` starts it (SpawnCore: utilityProcess.fork in the app, child_process.fork in
 * the node host), hands it its options and what the shell offers (shell-port.ts), and resolves
 * once the core is up with its first status. From then on it is a CoreLink: calls go by id and
 * come back as Results, events come back with the caller they are for, a window or connection
 * that goes away becomes `disconnect`. The shell port's requests are served here.
 *
 * The core process ending without being asked is never silent: calls waiting fail, and the
 * shell hears it (`onUnexpectedExit`) and says so — the node host exits non-zero, the app shows
 * why and quits. Restarting it instead would lose every window's sign-in and any sale in flight
 * with no one told; a crash of the core is a fault to see, not to paper over (the engine, whose
 * clients hold no sessions, is the one restarted: engine-supervisor.ts).
 */
import { fork } from 'node:child_process';
import type { CoreStatus, EventName, EventPayloads } from '../../shared/ipc/contract';
import { fail, type Result } from '../../shared/result';
import { CoreEvents } from '../core/platform/events';
import type { Dispatch } from '../ipc/dispatcher';
import type { CoreLink } from './core-link';
import type { CoreStart, FromCore, ToCore } from './core-protocol';
import { offerOf, serveShellPort, type ShellPort } from './shell-port';

/** One core process as the shell sees it, whatever made it. */
export interface CoreChannel {
  readonly pid: number | undefined;
  send(msg: ToCore): void;
  onMessage(fn: (msg: FromCore) => void): void;
  /** `how`: the exit code, or the signal that ended it. */
  onExit(fn: (how: string) => void): void;
  kill(): void;
}

export type SpawnCore = () => CoreChannel;

export const CORE_PROCESS_MESSAGES = {
  gone: "Ringup's core is not running.",
  exited: "Ringup's core process stopped ({how}).",
} as const;

/** How long a clean stop may take (the engine's own stop waits 5 s) before the core process is killed. */
export const CORE_STOP_TIMEOUT_MS = 15_000;

/**
 * child_process.fork of the built core entry (node host). Structured clone over the IPC pipe
 * ('advanced'); the core's log lines go to the host's stdout/stderr as they did when it ran inside it.
 */
export function forkCore(entry: string): SpawnCore {
  return () => {
    const child = fork(entry, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [], serialization: 'advanced' });
    // A send racing the child's exit must not become an uncaught 'error' (that would take the host down).
    child.on('error', () => {});
    return {
      get pid() {
        return child.pid;
      },
      send: (msg) => {
        if (child.connected) child.send(msg);
      },
      onMessage: (fn) => child.on('message', (m) => fn(m as FromCore)),
      onExit: (fn) => child.once('exit', (code, signal) => fn(signal ? `killed by ${signal}` : `exit code ${code}`)),
      kill: () => child.kill('SIGKILL'),
    };
  };
}

export interface CoreProcess extends CoreLink {
  readonly pid: number | undefined;
  /** The core's status: as it said when ready, kept up to date by its `core:status` events. */
  status(): CoreStatus;
  /** `fn` runs once if the core process ends without close() (a crash, a kill); `how` says how it ended. */
  onUnexpectedExit(fn: (how: string) => void): void;
  /** Asks the core to close cleanly and waits for its process to end (killed after CORE_STOP_TIMEOUT_MS). */
  close(): Promise<void>;
}

export function startCoreProcess(spawn: SpawnCore, start: Omit<CoreStart, 'offer'>, shell: ShellPort = {}): Promise<CoreProcess> {
  const child = spawn();
  const events = new CoreEvents();
  const waiting = new Map<number, (r: Result<unknown>) => void>();
  const unexpected: ((how: string) => void)[] = [];
  let nextId = 1;
  let status: CoreStatus | undefined;
  let exited = false;
  let stopping = false;
  const exitedPromise = new Promise<string>((resolve) => child.onExit(resolve));

  return new Promise<CoreProcess>((resolve, reject) => {
    child.onMessage((msg) => {
      switch (msg.type) {
        case 'result': {
          const done = waiting.get(msg.id);
          waiting.delete(msg.id);
          done?.(msg.result);
          break;
        }
        case 'event':
          if (msg.event === 'core:status') status = msg.payload as CoreStatus;
          if (msg.to === undefined) events.emit(msg.event, msg.payload);
          else events.emitTo(msg.to, msg.event as EventName, msg.payload as EventPayloads[EventName]);
          break;
        case 'shell':
          void serveShellPort(shell, msg).then((answer) => {
            if (!exited) child.send(answer);
          });
          break;
        case 'ready':
          status = msg.status;
          resolve(link);
          break;
        case 'failed':
          reject(new Error(msg.message));
          break;
      }
    });

    void exitedPromise.then((how) => {
      exited = true;
      for (const done of waiting.values()) done(fail('internal', CORE_PROCESS_MESSAGES.gone));
      waiting.clear();
      // Before ready: the start failed (a `failed` message, if any, has rejected already and wins).
      reject(new Error(CORE_PROCESS_MESSAGES.exited.replace('{how}', how)));
      if (!stopping) for (const fn of unexpected) fn(how);
    });

    const dispatch: Dispatch = (channel, sender, arg) => {
      if (exited) return Promise.resolve(fail('internal', CORE_PROCESS_MESSAGES.gone));
      const id = nextId++;
      return new Promise((done) => {
        waiting.set(id, done);
        child.send({ type: 'call', id, channel, sender, arg });
      });
    };

    const link: CoreProcess = {
      get pid() {
        return child.pid;
      },
      dispatch,
      events,
      disconnect(callerId) {
        if (!exited) child.send({ type: 'disconnect', callerId });
      },
      status: () => status!,
      onUnexpectedExit(fn) {
        unexpected.push(fn);
      },
      async close() {
        if (exited) return;
        stopping = true;
        const kill = setTimeout(() => child.kill(), CORE_STOP_TIMEOUT_MS);
        child.send({ type: 'stop' });
        await exitedPromise;
        clearTimeout(kill);
      },
    };

    child.send({ type: 'start', options: { ...start, offer: offerOf(shell) } });
  });
}

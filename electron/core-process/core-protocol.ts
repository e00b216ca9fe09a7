/**
 * Messages between a shell (Electron main, the node host) and the core in its own process
 * (core-child.ts: an Electron utilityProcess, or a child_process.fork of the node host). They
 * travel by structured clone over the process's own channel — the utilityProcess's message
 * port, or fork's IPC pipe with `serialization: 'advanced'` — never re-serialised on the way.
 *
 * A call carries what the dispatcher needs to judge it (channel, sender, argument); the core
 * process runs the dispatcher (validation and who may call it) against its handlers and answers
 * by the call's id. Events come back with the caller they are for (`to`; none: every window),
 * and the shell hands each to the right window or connection. The shell port's requests and
 * answers (shell-port.ts) share the channel.
 */
import type { CoreStatus, EventName, EventPayloads } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';
import type { IpcSender } from '../ipc/dispatcher';
import type { ShellAnswer, ShellOffer, ShellRequest } from './shell-port';

/** What the core process is started with (CoreOptions that can cross a process, and the shell's part). */
export interface CoreStart {
  dataDir: string;
  shell: CoreStatus['shell'];
  /** Origins the dispatcher accepts calls from (`app://ringup`; the node host's own http://127.0.0.1:PORT). */
  allowedOrigins: string[];
  /** The built engine entry to fork (build/engine/engine-child.mjs); absent: the engine runs inside the core process. */
  engineEntry?: string;
  skipFirstRun?: boolean;
  idleLockMs?: number;
  gatewayTimeoutMs?: number;
  /** What main offers through the shell port. */
  offer: ShellOffer;
}

export type ToCore =
  | { type: 'start'; options: CoreStart }
  | { type: 'call'; id: number; channel: string; sender: IpcSender; arg: unknown }
  /** A window or connection went away: its session ends (core.disconnect). */
  | { type: 'disconnect'; callerId: string }
  /** Close the core cleanly (its close() checkpoints SQLite, stops the engine) and exit. */
  | { type: 'stop' }
  | ShellAnswer;

export type FromCore =
  | { type: 'ready'; status: CoreStatus }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; result: Result<unknown> }
  | { type: 'event'; event: EventName; payload: EventPayloads[EventName]; to?: string }
  | ShellRequest;

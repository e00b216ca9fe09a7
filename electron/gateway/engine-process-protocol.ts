/**
 * Messages between the core and the engine when the engine runs in its own process
 * (child_process.fork from the core's own process, in the app and the node host alike). The
 * vault key travels in the `start` message over the child's IPC channel — never in a
 * file or on the command line.
 */
import type { EngineCredentials } from './engine';

export type ToEngine =
  | { type: 'start'; dataDir: string; port: number; /** base64 of the 32-byte vault key */ vaultKey?: string }
  | { type: 'stop' };

export type FromEngine =
  | { type: 'ready'; credentials: EngineCredentials }
  | { type: 'failed'; message: string }
  | { type: 'stopped' };

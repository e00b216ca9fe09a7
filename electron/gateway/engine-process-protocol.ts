/**
 * Messages between the core and the engine when the engine runs in its own process
 * (Electron's utilityProcess in the app, child_process.fork in the node host). The
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

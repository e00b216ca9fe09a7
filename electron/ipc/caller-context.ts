/**
 * Who is calling: each Electron window (webContents) and each node-host WebSocket
 * connection is its own caller, with its own sign-in. The dispatcher runs every
 * handler inside `runAsCaller(id, …)`, and the core reads `currentCallerId()` where it
 * needs the caller (UserDirectory.require, the audit log).
 *
 * Why AsyncLocalStorage rather than a second handler parameter: the caller then
 * follows every `await` inside a handler without threading an argument through each
 * domain's handlers (sales.ts keeps calling `users.require()` and gets the caller's
 * session), and a handler cannot forget to pass it on.
 * Code that runs outside any IPC call (tests calling core handlers directly) acts as
 * the single LOCAL_CALLER.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export const LOCAL_CALLER = 'local';

const storage = new AsyncLocalStorage<string>();

export function runAsCaller<T>(callerId: string, fn: () => T): T {
  return storage.run(callerId, fn);
}

export function currentCallerId(): string {
  return storage.getStore() ?? LOCAL_CALLER;
}

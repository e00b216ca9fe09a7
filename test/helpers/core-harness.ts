/**
 * The core against a real engine, reached through the one IPC dispatcher as a window
 * would: a fresh data folder per test file, started before its tests and removed after.
 * `call` answers a channel's Result, `value` unwraps it (throwing the message), and
 * `signInAs` signs the harness's window in by user name.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startCore, type Core } from '../../electron/core/app-core';
import { createDispatcher, type Dispatch } from '../../electron/ipc/dispatcher';
import type { HandlerResults, PosUser } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';

export const HARNESS_ORIGIN = 'http://127.0.0.1:5999';

export interface CoreHarness {
  /** The data folder (the engine's files are under `gateway/`). */
  readonly dir: string;
  readonly core: Core;
  readonly users: PosUser[];
  call<C extends keyof HandlerResults>(channel: C, arg?: unknown): Promise<Result<HandlerResults[C]>>;
  signInAs(name: string, pin: string): Promise<void>;
}

export function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Registers beforeAll/afterAll for one core in a fresh folder named `${prefix}XXXXXX`. */
export function useCoreHarness(prefix: string): CoreHarness {
  let dir = '';
  let core: Core | undefined;
  let dispatch: Dispatch | undefined;
  let users: PosUser[] = [];
  const call = async <C extends keyof HandlerResults>(channel: C, arg?: unknown): Promise<Result<HandlerResults[C]>> =>
    (await dispatch!(channel, { url: `${HARNESS_ORIGIN}/`, isMainFrame: true }, arg)) as Result<HandlerResults[C]>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    core = await startCore({ dataDir: dir, shell: 'node-host', healthIntervalMs: 0 });
    dispatch = createDispatcher(core.handlers, { allowedOrigins: [HARNESS_ORIGIN] });
    users = value(await call('auth:users')).users;
  });
  afterAll(async () => {
    await core?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  return {
    get dir() {
      return dir;
    },
    get core() {
      return core!;
    },
    get users() {
      return users;
    },
    call,
    async signInAs(name, pin) {
      // Read afresh: a test may have added or removed counter users since the start.
      users = value(await call('auth:users')).users;
      const user = users.find((u) => u.name === name);
      if (!user) throw new Error(`no counter user named ${name}`);
      value(await call('auth:sign-in', { userId: user.id, pin }));
    },
  };
}

/**
 * The core against a real engine, reached through the one IPC dispatcher as a window
 * would. `openCore` starts one on a data folder; `useCoreHarness` does so in a fresh folder
 * per test file, started before its tests and removed after. `call` answers a channel's
 * Result, `value` unwraps it (throwing the message), and `signInAs` signs the harness's
 * window in by user name. `readEngineDatabase` and the harness's `engineRow` read what the
 * engine stored, straight from its SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import { startCore, type Core } from '../../electron/core/app-core';
import { DATABASE_FILE } from '../../electron/gateway/engine';
import { createDispatcher } from '../../electron/ipc/dispatcher';
import type { HandlerResults } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';

export const HARNESS_ORIGIN = 'http://127.0.0.1:5999';

export function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Runs `read` on the SQLite file of the engine embedded in an app with this data folder, opened read-only and closed after. */
export function readEngineDatabase<T>(appDataDir: string, read: (db: Database.Database) => T): T {
  const db = new Database(join(appDataDir, 'gateway', DATABASE_FILE), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

export interface OpenCore {
  readonly core: Core;
  call<C extends keyof HandlerResults>(channel: C, arg?: unknown): Promise<Result<HandlerResults[C]>>;
  /** Signs this window in by user name (the list is read afresh: a test may have changed it). */
  signInAs(name: string, pin: string): Promise<void>;
}

/** A core on `dataDir` (the node host's shell, no health timer), with one window's IPC. */
export async function openCore(dataDir: string): Promise<OpenCore> {
  const core = await startCore({ dataDir, shell: 'node-host', healthIntervalMs: 0 });
  const dispatch = createDispatcher(core.handlers, { allowedOrigins: [HARNESS_ORIGIN] });
  const call = async <C extends keyof HandlerResults>(channel: C, arg?: unknown): Promise<Result<HandlerResults[C]>> =>
    (await dispatch(channel, { url: `${HARNESS_ORIGIN}/`, isMainFrame: true }, arg)) as Result<HandlerResults[C]>;
  return {
    core,
    call,
    async signInAs(name, pin) {
      const user = value(await call('auth:users')).users.find((u) => u.name === name);
      if (!user) throw new Error(`no counter user named ${name}`);
      value(await call('auth:sign-in', { userId: user.id, pin }));
    },
  };
}

export interface CoreHarness extends OpenCore {
  /** The data folder (the engine's files are under `gateway/`). */
  readonly dir: string;
  /** The first row `sql` answers in the engine's database (read-only). */
  engineRow(sql: string, ...params: unknown[]): Record<string, unknown> | undefined;
}

/** Registers beforeAll/afterAll for one core in a fresh folder named `${prefix}XXXXXX`. */
export function useCoreHarness(prefix: string): CoreHarness {
  let dir = '';
  let opened: OpenCore | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    opened = await openCore(dir);
  });
  afterAll(async () => {
    await opened?.core.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get core() {
      return opened!.core;
    },
    call: (channel, arg) => opened!.call(channel, arg),
    signInAs: (name, pin) => opened!.signInAs(name, pin),
    engineRow: (sql, ...params) => readEngineDatabase(dir, (db) => db.prepare(sql).get(...params) as Record<string, unknown> | undefined),
  };
}

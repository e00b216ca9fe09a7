/**
 * The core against a real engine, reached through the one IPC dispatcher as a window
 * would. `openCore` starts one on a data folder; `useCoreHarness` does so in a fresh folder
 * per test file, started before its tests and removed after. `call` answers a channel's
 * Result, `value` unwraps it (throwing the message), and `signInAs` signs the harness's
 * window in by user name. `readEngineDatabase` and the harness's `engineRow` read what the
 * engine stored, straight from its SQLite file. `useGatedEngine` puts an engine behind a real
 * TCP gate (tcp-gate.ts) for outage tests, and opens counter cores that reach it through it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import { startCore, type Core, type CoreOptions } from '../../electron/core/app-core';
import { devicePlacesFromEnv } from '../../electron/devices/device-places';
import { DATABASE_FILE } from '../../electron/gateway/engine';
import { createDispatcher } from '../../electron/ipc/dispatcher';
import type { HandlerResults } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';
import { embeddedCredentials, type EngineCreds } from './embedded-credentials';
import { standaloneHeaders } from './standalone-engine';
import { Gate } from './tcp-gate';

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

/**
 * What the device tests allow, as whoever starts Ringup would (devices/device-places.ts): the
 * simulators listen on any free port (port 0) and on socat pseudo-terminals.
 */
export const TEST_DEVICE_PLACES = devicePlacesFromEnv({ RINGUP_TERMINAL_PORTS: '1024-65535', RINGUP_SERIAL_PTYS: '1' });

/** A core on `dataDir` (the node host's shell, no health timer, the test device allowance, unless `options` say otherwise), with one window's IPC. */
export async function openCore(dataDir: string, options: Partial<CoreOptions> = {}): Promise<OpenCore> {
  const core = await startCore({ dataDir, shell: 'node-host', healthIntervalMs: 0, devicePlaces: TEST_DEVICE_PLACES, ...options });
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

/** Empties the signed-in user's open cart, if it holds anything (a test's fresh start). */
export async function clearCart(counter: Pick<OpenCore, 'call'>): Promise<void> {
  const cur = value(await counter.call('cart:current'));
  if (cur.lines.length > 0) value(await counter.call('cart:clear'));
}

/** Waits until the counter's offline queue holds nothing pending and is not forwarding (10 s at most, then throws). */
export async function waitForQueueSent(counter: Pick<OpenCore, 'call'>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const s = await counter.call('queue:status');
    if (s.ok && s.value.pendingCount === 0 && !s.value.forwarding) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the queue did not drain');
}

export interface GatedEngine {
  /** The engine's credentials (base_url, developer_id, user_id, user_api_key, location_id…). */
  readonly creds: EngineCreds;
  /** The data folder of the core the engine is embedded in (its files are under `gateway/`). */
  readonly engineDir: string;
  /** Between the counters and the engine: `down()` refuses connections, `up()` listens again on the same port. */
  readonly gate: Gate;
  /** A fresh folder named `${prefix}XXXXXX`, removed after the file's tests. */
  tempDir(prefix: string): string;
  /** A counter core on `dataDir` whose remote gateway is the engine through the gate (3 s gateway timeout); `options` add to it. */
  openCounter(dataDir: string, options?: Partial<CoreOptions>): Promise<OpenCore>;
  /** The engine's transactions for a v2 list filter (`transaction_api_id=…`), asked of the engine directly, not through the gate. */
  transactions<T>(filter: string): Promise<T[]>;
  /** The gateway goes away; the counter's health probe sees it. */
  outage(counter: Pick<OpenCore, 'call'>): Promise<void>;
  /** The gateway answers again; the health probe starts forwarding, and this waits until the queue has sent everything. */
  recovery(counter: Pick<OpenCore, 'call'>): Promise<void>;
}

/**
 * Registers beforeAll/afterAll for an engine (embedded in a core of its own, in a fresh
 * folder named `${prefix}XXXXXX`) behind a Gate that is up; after the tests the gate, the
 * engine and every folder from `tempDir` go. Counters the tests open are theirs to close
 * (in their tests or their own afterAll, which runs before this one's).
 */
export function useGatedEngine(prefix: string): GatedEngine {
  const dirs: string[] = [];
  let engineSide: Core | undefined;
  let creds = {} as EngineCreds;
  let gate: Gate | undefined;
  const tempDir = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), name));
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    const dir = tempDir(prefix);
    engineSide = await startCore({ dataDir: dir, shell: 'node-host', healthIntervalMs: 0 });
    creds = embeddedCredentials(dir);
    gate = new Gate(Number(new URL(creds.base_url).port));
    await gate.up();
  });
  afterAll(async () => {
    await gate?.down();
    await engineSide?.close();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });
  return {
    get creds() {
      return creds;
    },
    get engineDir() {
      return dirs[0]!;
    },
    get gate() {
      return gate!;
    },
    tempDir,
    openCounter: (dataDir, options = {}) =>
      openCore(dataDir, {
        gatewayTimeoutMs: 3_000,
        remote: {
          baseUrl: `http://127.0.0.1:${gate!.port}/v2`,
          auth: { developerId: creds.developer_id, userId: creds.user_id, userApiKey: creds.user_api_key },
          locationId: creds.location_id,
        },
        ...options,
      }),
    async transactions<T>(filter: string) {
      const res = await fetch(`${creds.base_url}/transactions?${filter}&page_size=100`, { headers: standaloneHeaders(creds) });
      return ((await res.json()) as { transactions: T[] }).transactions;
    },
    async outage(counter) {
      await gate!.down();
      await counter.call('gateway:check');
    },
    async recovery(counter) {
      await gate!.up();
      await counter.call('gateway:check');
      await waitForQueueSent(counter);
    },
  };
}

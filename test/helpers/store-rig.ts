/**
 * The store rig (issue 24): a real PostgreSQL (postgres-server.ts), store server processes (the
 * built store-cli, `--json`), and registers that are real node hosts (host-process.ts) each with
 * its own data and keys folders, joined to the store through the `store:join` channel over the
 * host's WebSocket bridge, as a manager on the Registers screen does: the first with the setup
 * code the server printed, the others with a code from `store:invite` on the first.
 *
 * What a fault test needs beside: a register behind its own TCP proxy (tcp-proxy.ts: `stall` cuts
 * it off as a dead link does, `drop` refuses it), kill -9 of a register's whole process group
 * (host, core, engine) or of a store server, and a start again on the same data folder or the same
 * database and port; a wait until every register's outbox is empty and it has applied the
 * store's newest seq; direct reads of each register's SQLite and of PostgreSQL, to compare what
 * was rung up with what the store holds.
 *
 * Every process a rig starts is its own process group (detached), so kill -9 takes its children
 * with it, as a power cut would; `close()` ends whatever is left by its group id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { StoreStatus, StoreInvitation } from '../../shared/ipc/store';
import type { CartView } from '../../shared/ipc/cart';
import { buildNodeBundle, removeBundle, startHostProcess, type HostProcess } from './host-process';
import { connectHost, type CallResult, type HostCaller } from './host-ipc';
import { startPostgres, type PostgresServer } from './postgres-server';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

const root = new URL('../..', import.meta.url).pathname;

/** The store server's entry, as electron/tools/build.mjs names it under build/node/. */
export const STORE_ENTRY = { 'node/store-cli': 'electron/store-server/store-cli.ts' } as const;

/** The seeded counter users of a fresh register (electron/core/auth/users.ts): the store's are the first register's. */
export const MANAGER_LOGIN = { name: 'Morgan', pin: '1234' } as const;
export const CASHIER_LOGIN = { name: 'Casey', pin: '0000' } as const;
/** A test card the embedded engine approves (never logged: only its last four are kept anywhere). */
export const TEST_CARD = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' } as const;

/** What `store-cli --json` prints: one line. */
export interface StoreServerInfo {
  url: string;
  addresses: string[];
  fingerprint: string;
  setupCode: string | null;
  engine: unknown;
}

export interface StoreServerProcess extends StoreServerInfo {
  readonly port: number;
  readonly child: ChildProcess;
  stderr(): string;
  exited(): boolean;
  /** kill -9 of its process group; resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM; resolves once it is gone. */
  stop(): Promise<void>;
}

export interface StoreServerOptions {
  /** 0 (the default): any free port. A restart passes the port it had, so the registers' addresses hold. */
  port?: number;
  engine?: boolean;
  engineData?: string;
  name?: string;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
  return gone;
}

export async function startStoreServer(bundle: string, databaseUrl: string, opts: StoreServerOptions = {}): Promise<StoreServerProcess> {
  const args = [join(bundle, 'node', 'store-cli.mjs'), '--database', databaseUrl, '--host', '127.0.0.1', '--port', String(opts.port ?? 0), '--json'];
  if (opts.engine) args.push('--engine', ...(opts.engineData ? ['--engine-data', opts.engineData] : []));
  if (opts.name) args.push('--name', opts.name);
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const info = await new Promise<StoreServerInfo>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the store server did not start: ${err}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as StoreServerInfo);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the store server exited (${code ?? signal}): ${err}`));
    });
  });
  return {
    ...info,
    url: info.url.replace(/\/$/, ''),
    port: Number(new URL(info.url).port),
    child,
    stderr: () => err,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    kill: () => killGroup(child, 'SIGKILL'),
    stop: () => killGroup(child, 'SIGTERM'),
  };
}

export interface RegisterOptions {
  /** Reach the store through a TCP proxy of its own (a link the test can cut); default false. */
  proxied?: boolean;
  /** The store server it joins through (default: the rig's first). */
  server?: StoreServerProcess;
  /** More environment for its node host. */
  env?: NodeJS.ProcessEnv;
}

export interface RigRegister {
  readonly name: string;
  readonly dataDir: string;
  /** The address it joined with (its proxy's when proxied). */
  readonly address: string;
  readonly proxy: TcpProxy | null;
  readonly host: HostProcess;
  /** Its id at the store (after joining). */
  registerId: string;
  /** Calls as the signed-in manager / cashier (signed in again when the store's users replaced the register's own). */
  asManager<T>(channel: string, arg?: unknown): Promise<T>;
  asCashier<T>(channel: string, arg?: unknown): Promise<T>;
  /** The raw result, for tests of refusals. */
  tryAsManager<T>(channel: string, arg?: unknown): Promise<CallResult<T>>;
  status(): Promise<StoreStatus>;
  /** A cash sale of an open amount, paid exact; answers the paid cart. */
  cashSale(cents: number): Promise<CartView>;
  /** A keyed card sale of an open amount; answers the paid cart. */
  cardSale(cents: number): Promise<CartView>;
  /** A sale of catalogue items (stock moves), paid by cash or card. */
  itemSale(items: Array<{ itemId: string; quantity?: number }>, pay: 'cash' | 'card'): Promise<CartView>;
  /** Its SQLite, read-only (close it after use). */
  openDb(): Database.Database;
  /** kill -9 of its process group (host, core, engine): nothing of it closes cleanly. */
  kill(): Promise<void>;
  /** Starts it again on the same data and keys folders (stopped with SIGTERM first if it runs). */
  restart(): Promise<void>;
  /** Whether its host is running. */
  running(): boolean;
}

export interface StoreRig {
  readonly pg: PostgresServer;
  readonly databaseUrl: string;
  readonly bundle: string;
  /** The registers' keys root (RINGUP_KEYS_DIR): a test may read a register's store token from it. */
  readonly keysDir: string;
  readonly servers: StoreServerProcess[];
  readonly registers: RigRegister[];
  /** A pool on the store's database, for a test's direct reads. */
  readonly db: pg.Pool;
  /** Starts another store server process on the same database (its address joins the list). */
  startServer(opts?: StoreServerOptions): Promise<StoreServerProcess>;
  /** Starts a server again on the port it had (after kill or stop); it replaces the old one in `servers`. */
  restartServer(server: StoreServerProcess): Promise<StoreServerProcess>;
  /** A new register (node host), joined to the store: the first with the setup code, later ones invited by the first. */
  addRegister(name: string, opts?: RegisterOptions): Promise<RigRegister>;
  /** The store's newest seq. */
  serverSeq(): Promise<number>;
  /** Until every running register (of `regs`) has an empty outbox and has applied the store's newest seq (deadline in ms). */
  waitSynced(timeoutMs?: number, regs?: RigRegister[]): Promise<void>;
  close(): Promise<void>;
}

export interface StoreRigOptions {
  /** Store server options for the first server. */
  server?: StoreServerOptions;
  /** More environment for every register. */
  registerEnv?: NodeJS.ProcessEnv;
  /** A bundle already built (the e2e specs pass the app's build/, whose hosts serve the real screens); default: one built for this rig, with a stub page. */
  bundle?: string;
}

/** Every register's environment in a rig: its sync's backoff while away capped at 1 s (the app's is 5 s), so a test waiting for it to be back waits less. */
export const STORE_SYNC_ENV: NodeJS.ProcessEnv = { RINGUP_STORE_BACKOFF_MS: '1000' };

/** Polls `check` until it answers true, or fails with `what` (and the last thing it said) at the deadline. */
export async function waitUntil(what: string, check: () => Promise<boolean | string>, timeoutMs = 30_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await check();
    if (last === true) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}${typeof last === 'string' ? `: ${last}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function signedIn(caller: HostCaller, login: { name: string; pin: string }): Promise<void> {
  const users = await caller.must<{ users: Array<{ id: string; name: string }> }>('auth:users');
  const user = users.users.find((u) => u.name === login.name);
  if (!user) throw new Error(`no counter user ${login.name} on this register (users: ${users.users.map((u) => u.name).join(', ')})`);
  await caller.must('auth:sign-in', { userId: user.id, pin: login.pin });
}

let refCounter = 0;
const clientRef = (name: string) => `rig-${name.replace(/[^A-Za-z0-9]/g, '')}-${Date.now().toString(36)}-${(refCounter++).toString(36)}`;

export async function startStoreRig(name: string, opts: StoreRigOptions = {}): Promise<StoreRig> {
  const dirs: string[] = [];
  const newDir = (prefix: string) => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  const keysDir = newDir(`ringup-${name}-keys-`);
  const [bundle, pgServer] = await Promise.all([opts.bundle ?? buildNodeBundle(STORE_ENTRY), startPostgres()]);
  const databaseUrl = pgServer.createDatabase(name.replace(/[^a-z0-9_]/gi, '_').toLowerCase());
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const servers: StoreServerProcess[] = [];
  const registers: RigRegister[] = [];
  const proxies: TcpProxy[] = [];
  const serverOptions = new Map<StoreServerProcess, StoreServerOptions>();

  // Each start prints a new setup code and withdraws the one before, while the store has no register.
  let setupCode: string | null = null;
  const startServer = async (o: StoreServerOptions = {}) => {
    const s = await startStoreServer(bundle, databaseUrl, o);
    servers.push(s);
    serverOptions.set(s, o);
    if (registers.length === 0) setupCode = s.setupCode;
    return s;
  };
  await startServer({ ...opts.server, ...(opts.server?.engine && !opts.server.engineData ? { engineData: newDir(`ringup-${name}-engine-`) } : {}) });

  async function addRegister(regName: string, ro: RegisterOptions = {}): Promise<RigRegister> {
    const server = ro.server ?? servers[0]!;
    const proxy = ro.proxied ? await startTcpProxy(server.port) : null;
    if (proxy) proxies.push(proxy);
    const address = proxy ? `https://127.0.0.1:${proxy.port}` : server.url;
    const dataDir = newDir(`ringup-${name}-reg-`);
    // A register keeps the join answer's addresses beside the one it joined with, and tries the next
    // when one is away: right for a shop, but on this one machine the server's own address would let
    // it round the proxy the test cuts. Its network reaches the store only through its proxy.
    const env = { RINGUP_KEYS_DIR: keysDir, ...STORE_SYNC_ENV, ...(proxy ? { RINGUP_STORE_TYPED_ADDRESS_ONLY: '1' } : {}), ...opts.registerEnv, ...ro.env };
    const start = () => startHostProcess(bundle, dataDir, { args: ['--skip-first-run', '--idle-lock-seconds', '86400'], env, detached: true });
    let host = await start();
    let manager: HostCaller | null = null;
    let cashier: HostCaller | null = null;
    const callerFor = async (role: 'manager' | 'cashier') => {
      const existing = role === 'manager' ? manager : cashier;
      if (existing?.open) return existing;
      const c = await connectHost(host);
      await signedIn(c, role === 'manager' ? MANAGER_LOGIN : CASHIER_LOGIN);
      if (role === 'manager') manager = c;
      else cashier = c;
      return c;
    };
    // A joining register drops its own users for the store's: its session then ends, and the caller signs in again once.
    const callAs = async <T>(role: 'manager' | 'cashier', channel: string, arg?: unknown): Promise<CallResult<T>> => {
      const r = await (await callerFor(role)).call<T>(channel, arg);
      if (r.ok || r.error.code !== 'unauthenticated') return r;
      const c = await callerFor(role);
      await signedIn(c, role === 'manager' ? MANAGER_LOGIN : CASHIER_LOGIN);
      return c.call<T>(channel, arg);
    };
    const must = async <T>(role: 'manager' | 'cashier', channel: string, arg?: unknown): Promise<T> => {
      const r = await callAs<T>(role, channel, arg);
      if (!r.ok) {
        // What the register's host said last, for the failure's reader (its core's and engine's stderr included).
        const said = host.stderr().trim().split('\n').slice(-8).join('\n');
        throw new Error(`${regName} ${channel}: ${r.error.message}${r.error.fields ? ` ${JSON.stringify(r.error.fields)}` : ''}${said ? `\n${regName} stderr:\n${said}` : ''}`);
      }
      return r.value;
    };
    const pay = async (cart: CartView, how: 'cash' | 'card'): Promise<CartView> => {
      const paid =
        how === 'cash'
          ? await must<CartView>('cashier', 'cart:pay-cash', { tenderedCents: cart.balanceCents })
          : await must<CartView & { message: string }>('cashier', 'cart:pay-card', { card: TEST_CARD, clientRef: clientRef(regName) });
      if (paid.status !== 'paid') throw new Error(`${regName}: the ${how} sale ended ${paid.status}${'message' in paid ? `: ${String(paid.message)}` : ''}`);
      return paid;
    };

    const reg: RigRegister = {
      name: regName,
      dataDir,
      address,
      proxy,
      get host() {
        return host;
      },
      registerId: '',
      asManager: (channel, arg) => must('manager', channel, arg),
      asCashier: (channel, arg) => must('cashier', channel, arg),
      tryAsManager: (channel, arg) => callAs('manager', channel, arg),
      status: () => must<StoreStatus>('cashier', 'store:status'),
      async cashSale(cents) {
        return pay(await must<CartView>('cashier', 'cart:add-open', { amountCents: cents }), 'cash');
      },
      async cardSale(cents) {
        return pay(await must<CartView>('cashier', 'cart:add-open', { amountCents: cents }), 'card');
      },
      async itemSale(items, how) {
        let cart: CartView | null = null;
        for (const i of items) cart = await must<CartView>('cashier', 'cart:add-item', { itemId: i.itemId, quantity: i.quantity ?? 1 });
        if (!cart) throw new Error('itemSale: no items');
        return pay(cart, how);
      },
      openDb: () => new Database(join(dataDir, 'ringup.db'), { readonly: true, fileMustExist: true }),
      async kill() {
        manager?.close();
        cashier?.close();
        manager = cashier = null;
        await killGroup(host.child, 'SIGKILL');
      },
      async restart() {
        manager?.close();
        cashier?.close();
        manager = cashier = null;
        if (!host.exited()) await killGroup(host.child, 'SIGTERM');
        host = await start();
      },
      running: () => !host.exited(),
    };

    // Join as a manager does: the first register with the server's setup code, the others with a code the first makes.
    let code: string;
    if (registers.length === 0) {
      if (!setupCode) throw new Error('the store server printed no setup code (does the store already have a register?)');
      code = setupCode;
      setupCode = null;
    } else {
      code = (await registers[0]!.asManager<StoreInvitation>('store:invite')).code;
    }
    const joined = await must<StoreStatus>('manager', 'store:join', { address, code, registerName: regName });
    if (!joined.joined || !joined.registerId) throw new Error(`${regName} did not join: ${JSON.stringify(joined)}`);
    reg.registerId = joined.registerId;
    registers.push(reg);
    return reg;
  }

  const serverSeq = async () => Number((await pool.query<{ s: string | null }>('SELECT max(seq) AS s FROM store_events')).rows[0]?.s ?? 0);

  return {
    pg: pgServer,
    databaseUrl,
    bundle,
    keysDir,
    servers,
    registers,
    db: pool,
    startServer,
    async restartServer(old) {
      if (!old.exited()) await old.kill();
      const o = serverOptions.get(old) ?? {};
      const s = await startStoreServer(bundle, databaseUrl, { ...o, port: old.port });
      servers[servers.indexOf(old)] = s;
      serverOptions.set(s, o);
      return s;
    },
    addRegister,
    serverSeq,
    async waitSynced(timeoutMs = 30_000, regs = registers) {
      await waitUntil(
        'every register has sent its outbox and applied the store\'s newest seq',
        async () => {
          const seq = await serverSeq();
          const behind: string[] = [];
          // Read from its SQLite, not its status: a change made a moment ago is in the outbox before the status has looked.
          for (const r of regs.filter((x) => x.running())) {
            const db = r.openDb();
            try {
              const waiting = (db.prepare('SELECT count(*) AS n FROM sync_outbox').get() as { n: number }).n;
              const at = (db.prepare('SELECT last_seq AS s FROM sync_state').get() as { s: number }).s;
              if (waiting !== 0 || at !== seq) behind.push(`${r.name} waiting ${waiting}, at ${at} of ${seq}`);
            } finally {
              db.close();
            }
          }
          return behind.length === 0 ? true : behind.join('; ');
        },
        timeoutMs,
        100,
      );
    },
    async close() {
      await Promise.all(registers.filter((r) => r.running()).map((r) => killGroup(r.host.child, 'SIGTERM')));
      await Promise.all(servers.map((s) => s.stop()));
      await Promise.all(proxies.map((p) => p.close()));
      await pool.end();
      pgServer.stop();
      if (!opts.bundle) removeBundle(bundle);
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}

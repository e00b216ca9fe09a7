/**
 * Two store server processes on one PostgreSQL database, started at the same moment on an empty
 * one: both serve the same store (one certificate, one schema, one setup code left valid),
 * events pushed through one are pulled through the other (a long poll on one woken by a push on
 * the other), and when one is killed with SIGKILL in the middle of a push, the register carries on
 * through the other and nothing is lost or doubled.
 */
import { Agent } from 'node:https';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeProof, makeJoinCode } from '../../electron/common/store-code';
import { SYNC_BATCH_MAX, joinCodeSchema, type JoinAnswer, type PullAnswer, type PushAnswer, type PushedEvent, type StoreEvent, type StoreHello } from '../../shared/store/store-wire';
import { EVENTS_LOCK, LOCK_NAMESPACE, openStorePool } from '../../electron/store-server/store-database';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { pinnedAgent, startStoreHarness, storeHttp, type StoreHttpOptions } from '../helpers/store-server-harness';
import { asRegister, stockEvent, type TestRegister } from '../helpers/store-fixtures';
import { bundleStoreCli, startStoreProcess, type StoreProcess } from '../helpers/store-process';

let pg: PostgresServer;
let databaseUrl: string;
let one: StoreProcess;
let two: StoreProcess;
let agent: Agent;
let hello: StoreHello;

beforeAll(async () => {
  const [server, bundle] = await Promise.all([startPostgres(), bundleStoreCli()]);
  pg = server;
  databaseUrl = pg.createDatabase('store_two_servers');
  // At the same moment, on an empty database: one migrates and makes the certificate, the other waits and uses them.
  [one, two] = await Promise.all([startStoreProcess(bundle, databaseUrl), startStoreProcess(bundle, databaseUrl)]);
});
afterAll(async () => {
  agent?.destroy();
  one?.kill();
  two?.kill();
  pg?.stop();
});

const http = <T>(server: StoreProcess, path: string, o?: StoreHttpOptions) => storeHttp<T>(agent, server.url, path, o);
const push = (server: StoreProcess, r: TestRegister, events: PushedEvent[]) => http<PushAnswer>(server, '/v1/events', { token: r.token, body: { events } });

/** Every event a register pulls through `server` after `after`, page by page. */
async function pullAll(server: StoreProcess, r: TestRegister, after: number): Promise<StoreEvent[]> {
  const out: StoreEvent[] = [];
  for (;;) {
    const page = await http<PullAnswer>(server, `/v1/events?after=${after}&limit=200`, { token: r.token });
    expect(page.status).toBe(200);
    out.push(...page.body.events);
    if (page.body.events.length < 200) return out;
    after = page.body.events[page.body.events.length - 1]!.seq;
  }
}

let a: TestRegister;
let b: TestRegister;

test('both serve the same store with the same certificate; exactly one setup code is left valid', async () => {
  expect(one.fingerprint).toBe(two.fingerprint);
  expect(one.url).not.toBe(two.url);
  // What a register does first: read the certificate, check it against the code, then pin it.
  const unverified = new Agent({ rejectUnauthorized: false });
  hello = (await storeHttp<StoreHello>(unverified, one.url, '/v1/hello')).body;
  unverified.destroy();
  expect(hello.fingerprint).toBe(one.fingerprint);
  agent = pinnedAgent(hello.certificate, hello.fingerprint);
  expect((await http<StoreHello>(two, '/v1/hello')).body.certificate).toBe(hello.certificate);
  expect((await http<StoreHello>(two, '/v1/hello')).body.addresses).toEqual(expect.arrayContaining([one.url, two.url]));

  const tries = await Promise.all(
    [one, two].map((s) => http<JoinAnswer>(s, '/v1/join', { body: { codeProof: codeProof(joinCodeSchema.parse(s.setupCode!)), registerName: 'Till 1' } })),
  );
  expect(tries.map((t) => t.status).sort()).toEqual([201, 400]);
  const joined = tries.find((t) => t.status === 201)!.body;
  expect(joined.first).toBe(true);
  expect(joined.addresses).toEqual(expect.arrayContaining([one.url, two.url]));
  a = asRegister(joined);
  // A second register, invited through one server, joins through the other.
  const code = makeJoinCode(hello.fingerprint);
  expect((await http(one, '/v1/invitations', { token: a.token, body: { codeProof: codeProof(code), sealedPepper: null } })).status).toBe(201);
  const second = await http<JoinAnswer>(two, '/v1/join', { body: { codeProof: codeProof(code), registerName: 'Till 2' } });
  expect(second.status).toBe(201);
  b = asRegister(second.body);
});

test('events pushed through one are pulled through the other, and a pull held on one wakes for a push on the other', async () => {
  const since = (await http<PullAnswer>(two, '/v1/events?after=0', { token: b.token })).body.lastSeq;
  const ev = stockEvent(a);
  expect((await push(one, a, [ev])).status).toBe(200);
  expect((await http<PullAnswer>(two, `/v1/events?after=${since}`, { token: b.token })).body.events.map((e) => e.id)).toEqual([ev.id]);

  // A third server, in this process so the test can see its pull held, on the same database: only PostgreSQL's NOTIFY can wake it.
  const third = await startStoreHarness(pg, 'store_two_servers', { create: false });
  try {
    const after = (await third.http<PullAnswer>(`/v1/events?after=0`, { token: b.token })).body.lastSeq;
    const held = third.http<PullAnswer>(`/v1/events?after=${after}&waitMs=20000`, { token: b.token });
    await waitFor('the pull to be held', () => third.server.pullsWaiting() === 1);
    const next = stockEvent(a);
    const started = Date.now();
    expect((await push(one, a, [next])).status).toBe(200);
    expect((await held).body.events.map((e) => e.id)).toEqual([next.id]);
    expect(Date.now() - started).toBeLessThan(15_000);
  } finally {
    await third.close();
  }
});

test('one server killed with SIGKILL in the middle of a push: the register goes on through the other, nothing lost or doubled', async () => {
  const start = (await http<PullAnswer>(two, '/v1/events?after=0', { token: b.token })).body.lastSeq;
  const storedBefore = await storeCount(`SELECT COUNT(*) FROM store_events WHERE register_id = '${a.registerId}' AND kind = 'stock_movements'`);
  // The 11th push is a full one, so the kill finds it inside its transaction (holding the event log's lock).
  const batches = Array.from({ length: 20 }, (_, i) => Array.from({ length: i === 10 ? SYNC_BATCH_MAX : 25 }, () => stockEvent(a)));
  let acked = 0;
  for (; acked < 10; acked++) expect((await push(one, a, batches[acked]!)).status).toBe(200);
  const inFlight = push(one, a, batches[acked]!).then(
    (r) => r.status,
    () => 0,
  );
  const watcher = openStorePool(databaseUrl, 1);
  try {
    await waitForAsync('the push to hold the lock', async () => {
      const held = await watcher.query('SELECT 1 FROM pg_locks WHERE locktype = $1 AND classid = $2 AND objid = $3 AND objsubid = 2 AND granted', ['advisory', LOCK_NAMESPACE, EVENTS_LOCK]);
      return held.rows.length > 0;
    });
    one.kill();
  } finally {
    await watcher.end();
  }
  // Killed mid-push: no answer (the connection goes with the process and PostgreSQL rolls the push back; had it
  // committed just before, the push below is the repeat the server drops).
  expect([0, 200]).toContain(await inFlight);
  // Whatever became of it, the register sends it again, through the other server, and the rest after it.
  for (let i = acked; i < batches.length; i++) {
    const r = await push(two, a, batches[i]!);
    expect(r.status).toBe(200);
  }
  const pulled = (await pullAll(two, b, start)).filter((e) => e.registerId === a.registerId);
  const sent = batches.flat().map((e) => e.id);
  expect(pulled.map((e) => e.id)).toEqual(sent);
  for (let i = 1; i < pulled.length; i++) expect(pulled[i]!.seq).toBeGreaterThan(pulled[i - 1]!.seq);
  const stored = await storeCount(`SELECT COUNT(*) FROM store_events WHERE register_id = '${a.registerId}' AND kind = 'stock_movements'`);
  expect(stored - storedBefore).toBe(sent.length);
  expect(await storeCount(`SELECT COUNT(*) FROM stock_movements WHERE register_id = '${a.registerId}'`)).toBe(stored);
});

test('a server stopped with SIGTERM exits cleanly and leaves the list of addresses', async () => {
  expect(await two.stop()).toBe(0);
  expect(await storeCount(`SELECT COUNT(*) FROM store_servers WHERE address = '${two.url}'`)).toBe(0);
  // The killed one could not say goodbye: its address stays listed (registers skip it when it is away).
  expect(await storeCount(`SELECT COUNT(*) FROM store_servers WHERE address = '${one.url}'`)).toBe(1);
});

async function waitFor(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function waitForAsync(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
}

async function storeCount(sql: string): Promise<number> {
  return Number(pg.sql('store_two_servers', sql).trim());
}

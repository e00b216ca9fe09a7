/**
 * The store server over real HTTPS on a real PostgreSQL: joining with the setup code and with
 * invitations, pushes stored once, pulls after a seq (long polls woken by another register's
 * push), seq in commit order under concurrent pushes, registers renamed and removed, bad input
 * refused in the envelope, edits made apart in the store's audit log, and that log's chain.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { codeMatchesCertificate, codeProof, groupCode, makeJoinCode, openWithCode, sealForCode } from '../../electron/common/store-code';
import { verifyStoreAudit } from '../../electron/store-server/store-audit';
import { STORE_ERR } from '../../electron/store-server/store-errors';
import { WRONG_CODES_PER_WINDOW } from '../../electron/store-server/wrong-code-limiter';
import type { JoinAnswer, PullAnswer, PushAnswer, PushedEvent, RegistersAnswer, StoreHello } from '../../shared/store/store-wire';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { startStoreHarness, type StoreHarness, type StoreHttpOptions } from '../helpers/store-server-harness';
import { asRegister, auditEvent, rowEvent, stockEvent, type TestRegister } from '../helpers/store-fixtures';

let pg: PostgresServer;
let store: StoreHarness;
let first: JoinAnswer;
let a: TestRegister;

beforeAll(async () => {
  pg = await startPostgres();
  store = await startStoreHarness(pg, 'store_server_test');
});
afterAll(async () => {
  await store?.close();
  pg?.stop();
});

const push = (r: TestRegister, events: PushedEvent[]) => store.http<PushAnswer>('/v1/events', { token: r.token, body: { events } });
const pull = (r: TestRegister, after: number, extra = '') => store.http<PullAnswer>(`/v1/events?after=${after}${extra}`, { token: r.token });

/** A register added by `by`: an invitation with a fresh code, then the join. */
async function addRegister(by: TestRegister, name: string): Promise<TestRegister> {
  const code = makeJoinCode(store.identity.fingerprint);
  const inv = await store.http('/v1/invitations', { token: by.token, body: { codeProof: codeProof(code), sealedPepper: null } });
  expect(inv.status).toBe(201);
  return asRegister(await store.join(code, name));
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('joining', () => {
  test('hello shows the certificate the setup code was made for', async () => {
    const r = await store.http<StoreHello>('/v1/hello');
    expect(r.status).toBe(200);
    expect(r.body.fingerprint).toBe(store.identity.fingerprint);
    expect(r.body.certificate).toBe(store.identity.certificatePem);
    expect(r.body.addresses).toContain(store.url);
    expect(codeMatchesCertificate(store.setupCode!, r.body.fingerprint)).toBe(true);
  });

  test('the setup code joins the first register once; the same code again is refused', async () => {
    first = await store.join(store.setupCode!, 'Till 1');
    expect(first.first).toBe(true);
    expect(first.sealedPepper).toBeNull();
    expect(first.addresses).toContain(store.url);
    expect(first.gateway).toBeNull();
    a = asRegister(first);
    const again = await store.http('/v1/join', { body: { codeProof: codeProof(store.setupCode!), registerName: 'Till 9' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ errors: { codeProof: [STORE_ERR.codeUsed] } });
  });

  test('a code the server never made is refused', async () => {
    const r = await store.http('/v1/join', { body: { codeProof: codeProof(makeJoinCode(store.identity.fingerprint)), registerName: 'Till 9' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ errors: { codeProof: [STORE_ERR.codeUnknown] } });
  });

  test('an invitation gives the sealed pepper back to the code that was sealed with it, once; the ring is not kept', async () => {
    const code = makeJoinCode(store.identity.fingerprint);
    const sealed = await sealForCode(code, Buffer.from('store-pepper-ring'));
    const inv = await store.http<{ expiresTs: number }>('/v1/invitations', { token: a.token, body: { codeProof: codeProof(code), sealedPepper: sealed } });
    expect(inv.status).toBe(201);
    expect(inv.body.expiresTs).toBeGreaterThan(Date.now());
    const joined = await store.join(groupCode(code), 'Till 2');
    expect(joined.first).toBe(false);
    expect((await openWithCode(code, joined.sealedPepper!))?.toString()).toBe('store-pepper-ring');
    const kept = await store.pool.query('SELECT sealed_pepper FROM invitations WHERE code_proof = $1', [codeProof(code)]);
    expect(kept.rows[0].sealed_pepper).toBeNull();
    // The same proof cannot be invited twice.
    const twice = await store.http('/v1/invitations', { token: a.token, body: { codeProof: codeProof(code), sealedPepper: null } });
    expect(twice.status).toBe(409);
  });

  test('an expired invitation is refused with 410 and its sealed ring dropped', async () => {
    const code = makeJoinCode(store.identity.fingerprint);
    await store.http('/v1/invitations', { token: a.token, body: { codeProof: codeProof(code), sealedPepper: 'c2VhbGVkLXJpbmctdGhhdC1pcy1sb25nLWVub3VnaA==' } });
    await store.pool.query('UPDATE invitations SET expires_ts = $2 WHERE code_proof = $1', [codeProof(code), Date.now() - 1]);
    const r = await store.http('/v1/join', { body: { codeProof: codeProof(code), registerName: 'Late' } });
    expect(r.status).toBe(410);
    expect(r.body).toEqual({ errors: { codeProof: [STORE_ERR.codeExpired] } });
    const kept = await store.pool.query('SELECT sealed_pepper FROM invitations WHERE code_proof = $1', [codeProof(code)]);
    expect(kept.rows[0].sealed_pepper).toBeNull();
  });

  test('inviting needs a register of the store', async () => {
    const r = await store.http('/v1/invitations', { body: { codeProof: codeProof(makeJoinCode(store.identity.fingerprint)), sealedPepper: null } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ errors: { general: [STORE_ERR.unauthorized] } });
  });
});

describe('push and pull', () => {
  test('a push repeated (after a kill or a lost answer) is stored once', async () => {
    const events = [stockEvent(a), stockEvent(a)];
    const one = await push(a, events);
    expect(one.status).toBe(200);
    expect(one.body.accepted).toBe(2);
    const two = await push(a, events);
    expect(two.body).toEqual({ accepted: 0, lastSeq: one.body.lastSeq });
    const n = await store.pool.query('SELECT COUNT(*)::int AS n FROM store_events WHERE id = ANY($1)', [events.map((e) => e.id)]);
    expect(n.rows[0].n).toBe(2);
    const moves = await store.pool.query('SELECT COUNT(*)::int AS n FROM stock_movements WHERE register_id = $1', [a.registerId]);
    expect(moves.rows[0].n).toBe(2);
  });

  test('a pull answers the events after the seq it gives, not the puller\'s own, and only what registers apply', async () => {
    const b = await addRegister(a, 'Puller');
    const before = (await pull(b, 0)).body.lastSeq;
    const stock = stockEvent(a);
    const r1 = await push(a, [stock, auditEvent(a, 'sale', 'Sale 1')]);
    const after = await pull(b, before);
    expect(after.status).toBe(200);
    expect(after.body.lastSeq).toBe(r1.body.lastSeq);
    // The stock movement is pulled; the audit row is the store's, not applied by registers.
    expect(after.body.events.map((e) => e.id)).toEqual([stock.id]);
    expect(after.body.events[0]).toMatchObject({ type: 'fact', kind: 'stock_movements', registerId: a.registerId, key: stock.type === 'fact' ? stock.key : '' });
    // Its own facts never come back to the register that pushed them.
    const own = await pull(a, before);
    expect(own.body.events).toEqual([]);
    expect(own.body.lastSeq).toBe(r1.body.lastSeq);
    // limit: fewer than asked means up to date.
    const limited = await pull(b, 0, '&limit=1');
    expect(limited.body.events).toHaveLength(1);
  });

  test("a register's own row edits come back to it in the store's order, so an edit it made apart that reached the server later is the last it applies", async () => {
    const tillB = await addRegister(a, 'Till O');
    const seen = (await pull(a, 0)).body.lastSeq;
    const item = { id: 'item-own', name: 'Tea', price_cents: 300 };
    // Till O changes the price while Till 1 is away; Till 1's own change reaches the server after it.
    const rB = await push(tillB, [rowEvent(tillB, 'catalogue_items', { ...item, price_cents: 350 }, seen)]);
    const rA = await push(a, [rowEvent(a, 'catalogue_items', { ...item, price_cents: 400 }, seen)]);
    expect(rA.body.lastSeq).toBeGreaterThan(rB.body.lastSeq);
    // Till 1 pulls after both: it must apply Till O's older edit and then its own later one, not end with $3.50.
    const back = await pull(a, seen);
    const prices = back.body.events.filter((e) => e.kind === 'catalogue_items').map((e) => (e.body as { price_cents: number }).price_cents);
    expect(prices).toEqual([350, 400]);
  });

  test('a held pull wakes when another register pushes', async () => {
    const b = await addRegister(a, 'Waiter');
    const since = (await pull(b, 0)).body.lastSeq;
    const started = Date.now();
    const held = pull(b, since, '&waitMs=20000');
    await waitFor('the pull to be held', () => store.server.pullsWaiting() === 1);
    const ev = stockEvent(a);
    await push(a, [ev]);
    const answer = await held;
    expect(answer.body.events.map((e) => e.id)).toEqual([ev.id]);
    // Woken by the push, not by the end of its wait.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  test('concurrent pushes from 3 registers: a pull running meanwhile sees every event once, seq increasing without a gap', async () => {
    const regs = [a, await addRegister(a, 'Till 3'), await addRegister(a, 'Till 4')];
    const reader = await addRegister(a, 'Reader');
    const start = (await pull(reader, 0)).body.lastSeq;
    const BATCHES = 25;
    const PER = 8;
    const pushed = new Set<string>();
    let done = false;
    const seen: Array<{ seq: number; id: string }> = [];
    // The reader pulls all along, from where it got to: a seq handed out before a later one committed would be skipped here.
    const reading = (async () => {
      let cursor = start;
      for (;;) {
        const finished = done;
        const r = await pull(reader, cursor, '&limit=50');
        expect(r.status).toBe(200);
        seen.push(...r.body.events.map((e) => ({ seq: e.seq, id: e.id })));
        cursor = r.body.events.length === 50 ? r.body.events[49]!.seq : r.body.lastSeq;
        if (finished && r.body.events.length < 50) break;
      }
    })();
    await Promise.all(
      regs.map(async (r) => {
        for (let b = 0; b < BATCHES; b++) {
          const events = Array.from({ length: PER }, () => stockEvent(r));
          for (const e of events) pushed.add(e.id);
          const answer = await push(r, events);
          expect(answer.status).toBe(200);
        }
      }),
    );
    done = true;
    await reading;
    expect(seen.length).toBe(pushed.size);
    expect(new Set(seen.map((s) => s.id))).toEqual(pushed);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.seq).toBe(seen[i - 1]!.seq + 1);
  });
});

describe('registers', () => {
  test('rename and remove reach every register as events; a removed register is refused at once', async () => {
    const c = await addRegister(a, 'Tablet');
    const since = (await pull(a, 0)).body.lastSeq;
    const renamed = await store.http<RegistersAnswer>(`/v1/registers/${c.registerId}`, { method: 'PATCH', token: a.token, body: { name: 'Floor tablet' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.registers.find((r) => r.id === c.registerId)).toMatchObject({ name: 'Floor tablet', removed: false, connected: true });
    expect((await push(c, [stockEvent(c)])).status).toBe(200);
    const removed = await store.http<RegistersAnswer>(`/v1/registers/${c.registerId}`, { method: 'DELETE', token: a.token });
    expect(removed.status).toBe(200);
    expect(removed.body.registers.find((r) => r.id === c.registerId)).toMatchObject({ removed: true, connected: false });
    for (const r of [await push(c, [stockEvent(c)]), await pull(c, 0), await store.http('/v1/registers', { token: c.token })]) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ errors: { general: [STORE_ERR.unauthorized] } });
    }
    const events = (await pull(a, since)).body.events.filter((e) => e.kind === 'register');
    expect(events.map((e) => e.body)).toEqual([
      { registerId: c.registerId, name: 'Floor tablet', removed: false },
      { registerId: c.registerId, name: 'Floor tablet', removed: true },
    ]);
    const selfRemove = await store.http(`/v1/registers/${a.registerId}`, { method: 'DELETE', token: a.token });
    expect(selfRemove.status).toBe(400);
    const unknown = await store.http('/v1/registers/nope', { method: 'PATCH', token: a.token, body: { name: 'x' } });
    expect(unknown.status).toBe(404);
  });

  test('the waiting header is kept as the register said', async () => {
    await store.http('/v1/registers', { token: a.token, headers: { 'x-ringup-waiting': '12' } });
    const list = await store.http<RegistersAnswer>('/v1/registers', { token: a.token });
    expect(list.body.registers.find((r) => r.id === a.registerId)?.waiting).toBe(12);
  });
});

describe('bad input', () => {
  test('every bad request is a 4xx with the envelope, never a 5xx', async () => {
    const t = a.token;
    const cases: Array<[string, StoreHttpOptions & { path: string }]> = [
      ['not JSON', { path: '/v1/events', token: t, rawBody: '{"events": [' }],
      ['empty body', { path: '/v1/events', token: t, method: 'POST', rawBody: '' }],
      ['not an object', { path: '/v1/events', token: t, body: [1, 2] }],
      ['unknown field', { path: '/v1/events', token: t, body: { events: [], more: 1 } }],
      ['text body', { path: '/v1/events', token: t, rawBody: 'hello', headers: { 'content-type': 'text/plain' } }],
      ['event of another register', { path: '/v1/events', token: t, body: { events: [{ ...stockEvent(a), id: 'someone-else:1' }] } }],
      ['row key not its key column', { path: '/v1/events', token: t, body: { events: [{ ...rowEvent(a, 'settings', { key: 'store-settings', value: '{}' }, 0), key: ['other'] }] } }],
      ['upsert without a row', { path: '/v1/events', token: t, body: { events: [{ ...rowEvent(a, 'settings', { key: 'store-settings', value: '{}' }, 0), row: null }] } }],
      ['unknown table', { path: '/v1/events', token: t, body: { events: [{ ...rowEvent(a, 'settings', { key: 'k' }, 0), table: 'printers' }] } }],
      ['fact body unreadable', { path: '/v1/events', token: t, body: { events: [{ ...stockEvent(a), body: { id: 'x' } }] } }],
      ['too many events', { path: '/v1/events', token: t, body: { events: Array.from({ length: 1001 }, () => stockEvent(a)) } }],
      ['negative after', { path: '/v1/events?after=-1', token: t }],
      ['after not a number', { path: '/v1/events?after=abc', token: t }],
      ['wait too long', { path: '/v1/events?waitMs=999999', token: t }],
      ['unknown query', { path: '/v1/events?from=1', token: t }],
      ['join without a name', { path: '/v1/join', body: { codeProof: 'a'.repeat(64) } }],
      ['join with a bad proof', { path: '/v1/join', body: { codeProof: 'xyz', registerName: 'x' } }],
      ['rename to nothing', { path: `/v1/registers/${a.registerId}`, method: 'PATCH', token: t, body: { name: '  ' } }],
      ['store day count negative', { path: '/v1/store-days', token: t, body: { counts: [{ registerId: a.registerId, countedCents: -1 }], closedBy: 'Ann' } }],
      ['store day names no register', { path: '/v1/store-days', token: t, body: { counts: [{ registerId: 'nobody', countedCents: 1 }], closedBy: 'Ann' } }],
      ['figures from text', { path: '/v1/figures?from=yesterday', token: t }],
      ['bad token', { path: '/v1/registers', token: 'not a token' }],
      ['no such page', { path: '/v1/nothing', token: t }],
      ['wrong method', { path: '/v1/hello', method: 'DELETE' }],
      ['bad URL encoding', { path: '/v1/registers/%E0%A4%A', token: t, method: 'DELETE' }],
    ];
    for (const [what, { path, ...o }] of cases) {
      const r = await store.http<{ errors: Record<string, string[]> }>(path, o);
      expect(r.status, what).toBeGreaterThanOrEqual(400);
      expect(r.status, what).toBeLessThan(500);
      expect(Object.values(r.body.errors).flat().length, what).toBeGreaterThan(0);
      for (const m of Object.values(r.body.errors).flat()) expect(typeof m, what).toBe('string');
    }
  });

});

describe("the store's audit log", () => {
  test('edits made apart: the later by the server\'s clock is kept and both are in the audit log, without secrets', async () => {
    const tillB = await addRegister(a, 'Till C');
    const seen = (await pull(tillB, 0)).body.lastSeq;
    const user = { id: 'user-7', name: 'Bea', role: 'cashier', pin_hash: 'secret-hash', sort: 0, failed_attempts: 0, locked_until: 0, created_ts: 1 };
    // Till 1 changes Bea's name; Till C, which had not seen it (seenSeq before it), changes her role.
    const r1 = await push(a, [rowEvent(a, 'pos_users', { ...user, name: 'Bea A' }, seen)]);
    await push(tillB, [rowEvent(tillB, 'pos_users', { ...user, role: 'manager' }, seen)]);
    // A later edit by Till C that had seen everything is not a conflict.
    await push(tillB, [rowEvent(tillB, 'pos_users', { ...user, role: 'manager', sort: 2 }, r1.body.lastSeq + 1)]);
    const rows = await store.pool.query<{ detail: string; register_id: string | null }>("SELECT detail, register_id FROM audit_log WHERE kind = 'sync-conflict' AND detail LIKE '%Bea%' ORDER BY seq");
    expect(rows.rows).toHaveLength(1);
    const detail = rows.rows[0]!.detail;
    expect(rows.rows[0]!.register_id).toBeNull();
    expect(detail).toContain('“Till 1”');
    expect(detail).toContain('“Till C”');
    expect(detail).toContain('Bea A');
    expect(detail).toContain('"role":"manager"');
    expect(detail).toContain("was kept");
    expect(detail).not.toContain('secret-hash');
    const kept = await store.pool.query("SELECT row, register_id FROM shared_rows WHERE tbl = 'pos_users' AND key = '[\"user-7\"]'");
    expect(kept.rows[0]).toMatchObject({ register_id: tillB.registerId, row: { role: 'manager', sort: 2 } });
  });

  test('pushed audit rows and the server\'s own chain up; the chain verifies, refuses changes, and names a row changed behind its back', async () => {
    await push(a, [auditEvent(a, 'sale', 'Sale 2', 500), auditEvent(a, 'refund', 'Refund 2', 200)]);
    const v = await verifyStoreAudit(store.pool);
    expect(v.ok).toBe(true);
    expect(v.rowsChecked).toBeGreaterThan(5);
    const kinds = (await store.pool.query<{ kind: string }>('SELECT DISTINCT kind FROM audit_log')).rows.map((r) => r.kind);
    expect(kinds).toEqual(expect.arrayContaining(['store-change', 'sale', 'refund', 'sync-conflict']));
    await expect(store.pool.query("UPDATE audit_log SET detail = 'changed' WHERE seq = 2")).rejects.toThrow(/append-only/);
    await expect(store.pool.query('DELETE FROM audit_log WHERE seq = 2')).rejects.toThrow(/append-only/);
    await expect(store.pool.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    // Someone who can drop the trigger still breaks the chain.
    await store.pool.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change');
    await store.pool.query("UPDATE audit_log SET detail = 'changed' WHERE seq = 2");
    await store.pool.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change');
    expect(await verifyStoreAudit(store.pool)).toMatchObject({ ok: false, firstBadSeq: 2 });
  });
});

describe('guessing codes', () => {
  test('wrong codes from one address are slowed after a few', async () => {
    // A store of its own: this address stays slowed for a minute.
    const other = await startStoreHarness(pg, 'store_server_limit');
    let last = 0;
    for (let i = 0; i <= WRONG_CODES_PER_WINDOW; i++) {
      last = (await other.http('/v1/join', { body: { codeProof: codeProof(makeJoinCode(other.identity.fingerprint)), registerName: 'Guess' } })).status;
    }
    expect(last).toBe(429);
    const body = (await other.http('/v1/join', { body: { codeProof: codeProof(other.setupCode!), registerName: 'Right' } })).body;
    expect(body).toEqual({ errors: { general: [STORE_ERR.tooManyTries] } });
    await other.close();
  });
});

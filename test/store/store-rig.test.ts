/**
 * The store rig itself (test/helpers/store-rig.ts): a real PostgreSQL, a store server process and
 * three registers (node hosts) joined through `store:join` — the first with the setup code, the
 * others with codes the first made. A sale on each is at the store; a price changed on one is on
 * the others; every register shows itself connected with nothing waiting. The comparison the
 * fault tests rest on sees a fact lost at the store and one stored twice. The fault tests build
 * on this.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { postgresAvailable } from '../helpers/postgres-server';
import { compareWithStore, markLedger } from '../helpers/store-ledger';
import { startStoreRig, waitUntil, type RigRegister, type StoreRig } from '../helpers/store-rig';

let rig: StoreRig;
let till1: RigRegister;

beforeAll(async () => {
  rig = await startStoreRig('store_rig');
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

describe.skipIf(!postgresAvailable)('the store rig', () => {
  it('starts PostgreSQL, a store server and three joined registers that sync', { timeout: 120_000 }, async () => {
    const a = (till1 = await rig.addRegister('Till 1'));
    const b = await rig.addRegister('Till 2');
    const c = await rig.addRegister('Till 3', { proxied: true });
    const ids = new Set([a.registerId, b.registerId, c.registerId]);
    expect(ids.size).toBe(3);
    const registers = await rig.db.query<{ id: string; name: string }>('SELECT id, name FROM registers WHERE removed_ts IS NULL ORDER BY name');
    expect(registers.rows.map((r) => r.name)).toEqual(['Till 1', 'Till 2', 'Till 3']);

    const marks = new Map([a, b, c].map((r) => [r, markLedger(r)]));
    await a.cashSale(1_250);
    await b.cardSale(2_000);
    await c.cashSale(375);
    const item = await a.asManager<CatalogueItem>('catalogue:add', { name: 'Tea', priceCents: 250, sku: 'TEA' });
    await rig.waitSynced();
    for (const r of [b, c]) {
      await waitUntil(`${r.name} lists the new item`, async () => (await r.asCashier<CatalogueItem[]>('catalogue:list', { search: '' })).some((i) => i.id === item.id && i.priceCents === 250));
    }
    for (const r of [a, b, c]) {
      const s = await r.status();
      expect(s).toMatchObject({ joined: true, connection: 'connected', waiting: 0, registerId: r.registerId });
      const { diffs, trade } = await compareWithStore(rig.db, r, marks.get(r)!);
      expect(diffs, r.name).toEqual([]);
      expect(trade.carts.size, r.name).toBe(1);
    }
  });

  it('the ledger comparison sees a cash movement lost at the store and an audit row stored twice', { timeout: 60_000 }, async () => {
    const mark = markLedger(till1);
    const sale = await till1.cashSale(990);
    await rig.waitSynced();
    expect((await compareWithStore(rig.db, till1, mark)).diffs).toEqual([]);
    // The store loses the sale's cash movement, and a second event carries its audit row again (another id, the same key).
    const cash = await rig.db.query<{ key: string }>('DELETE FROM cash_movements WHERE register_id = $1 AND key::bigint > $2 RETURNING key', [till1.registerId, mark.cashSeq]);
    expect(cash.rows).toHaveLength(1);
    await rig.db.query(
      `INSERT INTO store_events (seq, id, register_id, type, kind, key, op, body, server_ts)
         SELECT (SELECT max(seq) + 1 FROM store_events), id || '-again', register_id, type, kind, key, op, body, server_ts
         FROM store_events WHERE register_id = $1 AND kind = 'audit_log' ORDER BY seq DESC LIMIT 1`,
      [till1.registerId],
    );
    const { diffs } = await compareWithStore(rig.db, till1, mark);
    expect(diffs).toEqual([
      expect.stringMatching(/^Till 1: the audit_log fact \d+ is in the store's events 2 times$/),
      `Till 1 cash movements: 1 on the register and not at the store (${cash.rows[0]!.key})`,
      `Till 1 cash: ${sale.totals.totalCents} cents on the register, 0 at the store`,
    ]);
  });
});

/**
 * A register killed with kill -9 at random points during sync, 20 times (issue 24, point 6): its
 * host, core and engine die at once (its process group), as in a power cut. The first kill comes
 * at the worst moment, made sure of: its backlog stored at the store and the answer lost on the
 * way back. Then each life it starts on the same data folder and the sync pushes what waits; a
 * seeded random delay later it is killed again — before a push left, while the server was storing
 * it, after the server committed and before the register heard (its answers are slowed at its
 * proxy to widen that window), or while it applied a pull. Half its lives begin with a burst of
 * trade made while its link was dead, so a backlog is being pushed when the kill comes. After the
 * 20th kill it runs to the end: every fact it rang up is at the store exactly once, by id and to
 * the cent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { postgresAvailable } from '../helpers/postgres-server';
import { seededRandom } from '../helpers/seeded-random';
import { compareStockLedgers, compareWithStore, markLedger } from '../helpers/store-ledger';
import { startStoreRig, waitUntil, type RigRegister, type StoreRig } from '../helpers/store-rig';
import { emptyTally, stockedItems, trade } from '../helpers/store-trade';

const SEED = 24_002;
const KILLS = 20;

let rig: StoreRig;
let a: RigRegister;
let b: RigRegister;
let items: CatalogueItem[];

beforeAll(async () => {
  rig = await startStoreRig('faults_register_kill');
  a = await rig.addRegister('Till 1');
  b = await rig.addRegister('Till 2', { proxied: true });
  items = await stockedItems(a, ['Water', 'Crisps', 'Apple'], 500);
  await rig.waitSynced();
}, 180_000);

afterAll(async () => {
  await rig?.close();
});

/** The outbox rows a register holds (read from its SQLite while it is down). */
function outboxOf(reg: RigRegister): number {
  const db = reg.openDb();
  try {
    return (db.prepare('SELECT count(*) AS n FROM sync_outbox').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The id of the register's newest closed cart. */
function newestCartOf(reg: RigRegister): string {
  const db = reg.openDb();
  try {
    return (db.prepare("SELECT id FROM carts WHERE status IN ('paid', 'due', 'cancelled') ORDER BY closed_ts DESC, rowid DESC LIMIT 1").get() as { id: string }).id;
  } finally {
    db.close();
  }
}

const eventsFrom = async (reg: RigRegister) => Number((await rig.db.query<{ n: string }>('SELECT count(*) AS n FROM store_events WHERE register_id = $1', [reg.registerId])).rows[0]!.n);

describe.skipIf(!postgresAvailable)('a register killed with kill -9 during sync, 20 times', () => {
  it('loses and doubles nothing', { timeout: 300_000 }, async () => {
    const rng = seededRandom(SEED);
    const marks = new Map([a, b].map((r) => [r, markLedger(r)]));
    const tally = emptyTally();
    const lives: Array<{ delayMs: number; waitingAtKill: number; storedDuringLife: number }> = [];

    // The first life ends at the worst moment, made sure of: a backlog made while its link was dead
    // reaches the store, which stores it, and the register is killed while the answer is still on
    // its way back (the proxy holds each piece of the store's answers 4 s); it never learns its push
    // landed, and pushes it all again.
    b.proxy!.mode = 'stall';
    await trade(b, rng, items, 20, tally);
    const backlog = outboxOf(b);
    const storedBefore = await eventsFrom(b);
    const lastCart = newestCartOf(b);
    b.proxy!.delayMs = 4_000;
    b.proxy!.mode = 'pass';
    // A push is one transaction: once the backlog's last sale is at the store, all of it is.
    await waitUntil('the backlog is stored at the store', async () => (await rig.db.query('SELECT 1 FROM sales WHERE register_id = $1 AND cart_id = $2', [b.registerId, lastCart])).rows.length === 1, 60_000);
    await b.kill();
    lives.push({ delayMs: 0, waitingAtKill: outboxOf(b), storedDuringLife: (await eventsFrom(b)) - storedBefore });
    expect(lives[0]!.waitingAtKill).toBe(backlog);
    expect(lives[0]!.storedDuringLife).toBeGreaterThan(0);

    for (let life = 1; life < KILLS; life++) {
      await b.restart();
      const storedBefore = await eventsFrom(b);
      if (rng.chance(0.5)) {
        // A burst made while the link is dead, then the link back: the sync pushes it as the kill comes.
        b.proxy!.mode = 'stall';
        await trade(b, rng, items, rng.int(2, 4), tally);
        b.proxy!.mode = 'pass';
      } else {
        await trade(b, rng, items, rng.int(0, 2), tally);
      }
      // Slow answers widen the window between the server's commit and the register hearing of it.
      b.proxy!.delayMs = rng.int(0, 80);
      const delayMs = rng.int(0, 300);
      await new Promise((r) => setTimeout(r, delayMs));
      await b.kill();
      lives.push({ delayMs, waitingAtKill: outboxOf(b), storedDuringLife: (await eventsFrom(b)) - storedBefore });
    }
    b.proxy!.delayMs = 0;
    await b.restart();
    // The other register trades on meanwhile; its changes reach the one that was killed.
    await trade(a, seededRandom(SEED + 1), items, 5);
    await rig.waitSynced(90_000);

    console.log(`register kill lives (delay ms / outbox rows at the kill / events stored in the life): ${lives.map((l) => `${l.delayMs}/${l.waitingAtKill}/${l.storedDuringLife}`).join(' ')}`);
    expect(lives).toHaveLength(KILLS);
    // The random kills fell during sync: some with changes still waiting, and pushes landed between kills.
    expect(lives.slice(1).filter((l) => l.waitingAtKill > 0).length).toBeGreaterThanOrEqual(3);
    expect(lives.slice(1).filter((l) => l.storedDuringLife > 0).length).toBeGreaterThanOrEqual(3);

    for (const r of [a, b]) {
      const { diffs, trade: t } = await compareWithStore(rig.db, r, marks.get(r)!);
      expect(diffs, r.name).toEqual([]);
      if (r === b) expect(t.carts.size).toBe(tally.sales);
    }
    expect(await compareStockLedgers(rig.db, [a, b])).toEqual([]);
    await waitUntil('the killed register says it is connected', async () => (await b.status()).connection === 'connected', 10_000);
  });
});

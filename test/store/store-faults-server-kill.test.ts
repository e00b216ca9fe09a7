/**
 * The store server killed with kill -9 and started again mid-sync (issue 24, point 6): three
 * registers trade at once while the server is killed at seeded random moments — mid-push,
 * mid-pull, between a commit and its answer — and started again on the same database and port a
 * moment later; the registers sell on while it is down. At the end the store holds every fact of
 * every register exactly once (by id and to the cent), the store's audit chain is whole (each
 * row's prev_hash is the hash before it, in seq order), and every register holds the store's
 * stock ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { postgresAvailable } from '../helpers/postgres-server';
import { seededRandom } from '../helpers/seeded-random';
import { compareStockLedgers, compareWithStore, markLedger } from '../helpers/store-ledger';
import { startStoreRig, waitUntil, type RigRegister, type StoreRig } from '../helpers/store-rig';
import { emptyTally, stockedItems, trade, type TradeTally } from '../helpers/store-trade';

const SEED = 24_003;
const SERVER_KILLS = 5;

let rig: StoreRig;
let regs: RigRegister[];
let items: CatalogueItem[];

beforeAll(async () => {
  rig = await startStoreRig('faults_server_kill');
  regs = [await rig.addRegister('Till 1'), await rig.addRegister('Till 2'), await rig.addRegister('Till 3')];
  items = await stockedItems(regs[0]!, ['Water', 'Crisps', 'Apple'], 500);
  await rig.waitSynced();
}, 180_000);

afterAll(async () => {
  await rig?.close();
});

describe.skipIf(!postgresAvailable)('the store server killed and restarted mid-sync', () => {
  it('loses and doubles nothing; the audit chain stays whole', { timeout: 300_000 }, async () => {
    const rng = seededRandom(SEED);
    const marks = new Map(regs.map((r) => [r, markLedger(r)]));
    const tallies = new Map<RigRegister, TradeTally>(regs.map((r) => [r, emptyTally()]));
    const kills: Array<{ afterMs: number; downMs: number; seqAtKill: number }> = [];

    for (let k = 0; k < SERVER_KILLS; k++) {
      // Each round starts with every register back on the (restarted) server, so the kill comes mid-sync.
      await waitUntil('every register is connected again', async () => (await Promise.all(regs.map((r) => r.status()))).every((s) => s.connection === 'connected'), 30_000);
      // Every register trades on through the kill and the restart.
      const trading = Promise.all(regs.map((r, i) => trade(r, seededRandom(SEED * 10 + k * 3 + i), items, rng.int(8, 14), tallies.get(r)!)));
      const afterMs = rng.int(200, 700);
      await new Promise((r) => setTimeout(r, afterMs));
      const seqAtKill = await rig.serverSeq();
      await rig.servers[0]!.kill();
      const downMs = rng.int(0, 600);
      await new Promise((r) => setTimeout(r, downMs));
      await rig.restartServer(rig.servers[0]!);
      kills.push({ afterMs, downMs, seqAtKill });
      await trading;
    }
    await rig.waitSynced(90_000);
    console.log(`store server kills (ms into the trade / ms down / store seq at the kill): ${kills.map((k) => `${k.afterMs}/${k.downMs}/${k.seqAtKill}`).join(' ')}`);
    // Every kill came while the registers' pushes were landing: the store had more at each kill than at the one before.
    for (let k = 1; k < kills.length; k++) expect(kills[k]!.seqAtKill, `kill ${k + 1}`).toBeGreaterThan(kills[k - 1]!.seqAtKill);

    for (const r of regs) {
      const { diffs, trade: t } = await compareWithStore(rig.db, r, marks.get(r)!);
      expect(diffs, r.name).toEqual([]);
      expect(t.carts.size, r.name).toBe(tallies.get(r)!.sales);
    }
    expect(await compareStockLedgers(rig.db, regs)).toEqual([]);

    // The store's audit chain: each row's prev_hash is the row before it's hash, in seq order, no link missing.
    const broken = await rig.db.query<{ seq: string }>(
      'SELECT seq FROM (SELECT seq, prev_hash, lag(hash) OVER (ORDER BY seq) AS before FROM audit_log) c WHERE before IS NOT NULL AND prev_hash <> before',
    );
    expect(broken.rows).toEqual([]);
  });
});

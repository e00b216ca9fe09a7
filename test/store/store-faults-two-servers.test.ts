/**
 * Two store server processes on one database serve the registers at once, and one is killed
 * (issue 24, point 6): the registers are spread over both (each joins through one, and the join
 * answer lists every server's address); all three trade; the first server is killed with kill -9
 * mid-trade and not started again. The registers that used it go on through the other (their
 * status names its address), and the store holds every fact of every register exactly once, by
 * id and to the cent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { postgresAvailable } from '../helpers/postgres-server';
import { seededRandom } from '../helpers/seeded-random';
import { compareStockLedgers, compareWithStore, markLedger } from '../helpers/store-ledger';
import { startStoreRig, waitUntil, type RigRegister, type StoreRig, type StoreServerProcess } from '../helpers/store-rig';
import { emptyTally, stockedItems, trade, type TradeTally } from '../helpers/store-trade';

const SEED = 24_004;

let rig: StoreRig;
let s1: StoreServerProcess;
let s2: StoreServerProcess;
let regs: RigRegister[];
let items: CatalogueItem[];

beforeAll(async () => {
  rig = await startStoreRig('faults_two_servers');
  s1 = rig.servers[0]!;
  s2 = await rig.startServer();
  regs = [await rig.addRegister('Till 1', { server: s1 }), await rig.addRegister('Till 2', { server: s2 }), await rig.addRegister('Till 3', { server: s1 })];
  items = await stockedItems(regs[0]!, ['Water', 'Crisps', 'Apple'], 500);
  await rig.waitSynced();
}, 180_000);

afterAll(async () => {
  await rig?.close();
});

describe.skipIf(!postgresAvailable)('two store server processes on one database, one killed', () => {
  it('both serve at once; the registers carry on through the other; nothing lost or doubled', { timeout: 240_000 }, async () => {
    expect(s1.fingerprint).toBe(s2.fingerprint);
    // Both served: each holds a register's pull (the registers' statuses name the address in use).
    const before = await Promise.all(regs.map((r) => r.status()));
    expect(before.map((s) => s.address)).toEqual([s1.url, s2.url, s1.url]);

    const marks = new Map(regs.map((r) => [r, markLedger(r)]));
    const tallies = new Map<RigRegister, TradeTally>(regs.map((r) => [r, emptyTally()]));
    const rng = seededRandom(SEED);
    const trading = Promise.all(regs.map((r, i) => trade(r, seededRandom(SEED + 1 + i), items, 30, tallies.get(r)!)));
    await new Promise((r) => setTimeout(r, rng.int(300, 1_500)));
    await s1.kill();
    await trading;
    await Promise.all(regs.map((r, i) => trade(r, seededRandom(SEED + 10 + i), items, 5, tallies.get(r)!)));

    await rig.waitSynced(90_000, regs);
    await waitUntil('every register uses the server left', async () => (await Promise.all(regs.map((r) => r.status()))).every((s) => s.address === s2.url && s.connection === 'connected'), 30_000);
    for (const r of regs) {
      const { diffs, trade: t } = await compareWithStore(rig.db, r, marks.get(r)!);
      expect(diffs, r.name).toEqual([]);
      expect(t.carts.size, r.name).toBe(tallies.get(r)!.sales);
    }
    expect(await compareStockLedgers(rig.db, regs)).toEqual([]);
  });
});

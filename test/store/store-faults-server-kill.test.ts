/**
 * The store server killed with kill -9 and started again mid-sync (issue 24, point 6): three
 * registers trade at once while the server is killed at seeded random moments — mid-push,
 * mid-pull, between a commit and its answer — and started again on the same database and port a
 * moment later; the registers sell on while it is down. At the end the store holds every fact of
 * every register exactly once (by id and to the cent), the store's audit chain is whole (each
 * row's prev_hash is the hash before it, in seq order), and every register holds the store's
 * stock ledger.
 *
 * Then the store's figures, on the same store after its kills: a manager closes the store's day
 * with each drawer's count (every register closes its own Z with its count: the store day lists
 * them all closed), the registers trade on (cash and card, returns), and the store's figures —
 * `/v1/figures` read straight from the server, and the `store:report` channel on a register — add
 * up across registers to the cent, each register's equal to its own X report.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeHostKeysFolder } from '../../electron/core/keys/node-host-keys';
import { STORE_TOKEN_SECRET } from '../../electron/core/store/store-join';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import type { DayReport } from '../../shared/ipc/reports';
import type { StoreDayView, StoreReport } from '../../shared/ipc/store';
import type { RegisterFigures, StoreFigures } from '../../shared/store/store-wire';
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

/** A register's figures as its own X report says them (the store's RegisterFigures, from the register's side). */
function figuresOfX(x: DayReport): Omit<RegisterFigures, 'registerId' | 'name' | 'lastZ'> {
  const cashCents = x.cash!.expectedCents;
  return {
    sales: x.cartSales!.carts,
    cardCents: x.allTenders!.netCents - cashCents,
    cashCents,
    taxCents: x.allTenders!.taxCents,
    tipCents: x.totals.tipsCents,
    netCents: x.allTenders!.netCents,
  };
}

const moneyOf = (f: Omit<RegisterFigures, 'registerId' | 'name' | 'lastZ'>) => ({ sales: f.sales, cardCents: f.cardCents, cashCents: f.cashCents, taxCents: f.taxCents, tipCents: f.tipCents, netCents: f.netCents });

describe.skipIf(!postgresAvailable)("the store's figures after the kills", () => {
  it("a store Z closes every register's day with its drawer count; then the figures add up across registers to the cent, each equal to its X report", { timeout: 240_000 }, async () => {
    await rig.waitSynced(60_000);
    const manager = regs[0]!;
    // Each drawer counted: what each register's X says it should hold, plus a dollar over on the second.
    const counts = await Promise.all(regs.map(async (r, i) => ({ registerId: r.registerId, countedCents: (await r.asManager<DayReport>('reports:x')).cash!.expectedCents + (i === 1 ? 100 : 0) })));
    const closed = await manager.asManager<StoreDayView & { thisRegisterZ: DayReport | null }>('store:close-day', { counts });
    expect(closed.thisRegisterZ?.cashCount?.countedCents).toBe(counts[0]!.countedCents);
    await waitUntil(
      'every register has closed its own day for the store day',
      async () => {
        const day = (await manager.asManager<StoreDayView[]>('store:days')).find((d) => d.number === closed.number);
        return day?.waitingFor.length === 0 ? true : `waiting for ${day?.waitingFor.join(', ')}`;
      },
      60_000,
      200,
    );
    for (const [i, r] of regs.entries()) {
      const [last] = await r.asManager<Array<{ number: number }>>('reports:z-list');
      const z = await r.asManager<DayReport>('reports:z-view', { number: last!.number });
      // The drawer as counted for it, against what it should have held: a dollar over on the second.
      expect(z.cashCount, r.name).toMatchObject({ countedCents: counts[i]!.countedCents, overShortCents: i === 1 ? 100 : 0 });
    }

    // A new day's trade, returns included.
    await Promise.all(regs.map((r, i) => trade(r, seededRandom(SEED + 100 + i), items, 25)));
    await rig.waitSynced(60_000);

    // Each X report is audited: its audit row is one more change to send, so the store is waited for again.
    const xs = await Promise.all(regs.map((r) => r.asManager<DayReport>('reports:x')));
    await rig.waitSynced(60_000);
    // Nobody is behind once every outbox is empty (the store keeps what each register last told it).
    await waitUntil('the store report lists nobody behind', async () => (await manager.asManager<StoreReport>('store:report')).behind.length === 0, 5_000, 100);
    const report = await manager.asManager<StoreReport>('store:report');
    const token = readFileSync(join(nodeHostKeysFolder(manager.dataDir, { RINGUP_KEYS_DIR: rig.keysDir }), STORE_TOKEN_SECRET), 'utf8').trim();
    const direct = await storeGet<StoreFigures>(rig, `/v1/figures?from=${report.from}&to=${report.to}`, Buffer.from(token, 'base64').toString('utf8'));
    for (const [i, r] of regs.entries()) {
      const fromX = figuresOfX(xs[i]!);
      expect(fromX.sales, r.name).toBeGreaterThan(0);
      expect(moneyOf(report.registers.find((f) => f.registerId === r.registerId)!), `${r.name} in store:report`).toEqual(fromX);
      expect(moneyOf(direct.registers.find((f) => f.registerId === r.registerId)!), `${r.name} in /v1/figures`).toEqual(fromX);
    }
    const summed = xs.map(figuresOfX).reduce((t, f) => ({
      sales: t.sales + f.sales,
      cardCents: t.cardCents + f.cardCents,
      cashCents: t.cashCents + f.cashCents,
      taxCents: t.taxCents + f.taxCents,
      tipCents: t.tipCents + f.tipCents,
      netCents: t.netCents + f.netCents,
    }));
    expect(moneyOf(report.totals)).toEqual(summed);
    expect(moneyOf(direct.totals)).toEqual(summed);
  });
});

/** A GET to the store server as a register makes it, pinned to the store's certificate. */
async function storeGet<T>(r: StoreRig, path: string, token: string): Promise<T> {
  const server = r.servers[0]!;
  const { Agent, request } = await import('node:https');
  const hello = (await r.db.query<{ certificate_pem: string }>('SELECT certificate_pem FROM store_identity')).rows[0]!.certificate_pem;
  const agent = new Agent({ ca: hello, checkServerIdentity: () => undefined });
  try {
    return await new Promise<T>((resolve, reject) => {
      const req = request(new URL(path, server.url), { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body) as T) : reject(new Error(`${path} answered ${res.statusCode}: ${body}`))));
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    agent.destroy();
  }
}

/**
 * The store's shared gateway (issue 24, point 5): a store server hosting the embedded engine
 * (`--engine`, here started in the test's process as store-cli does) gives it in the join
 * answer; two in-process registers joined to it use it as their gateway from their next start,
 * over HTTPS pinned to the store server's certificate (no CA would vouch for it).
 *
 * Proves: after a restart both registers run on the store's gateway; a card sale rung up on one
 * register is refunded from the other, and the first sees the refund on its sale; the store's
 * report checks the store's card tenders against the gateway's records. Each register's own X
 * counts only the card money it made (a refund on the register that made it), and the two add up
 * to the gateway's records for the period.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { GatewayClient } from '../../electron/client/gateway-client';
import type { CoreOptions } from '../../electron/core/app-core';
import { counted, totalsOfCounted } from '../../electron/core/transactions/approved-money';
import { startStoreGateway } from '../../electron/store-server/store-engine';
import { openCore, value, type OpenCore } from '../helpers/core-harness';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { until } from '../helpers/store-core-waits';
import { startStoreHarness, type StoreHarness } from '../helpers/store-server-harness';

const FAST: Partial<CoreOptions> = { storeTickMs: 20, storeBackoffMaxMs: 200, storeTimeoutMs: 3_000 };
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };

let pg: PostgresServer;
let store: StoreHarness;
let engineDir = '';
let engine: GatewayClient;
const dirs: string[] = [];
let a: OpenCore;
let b: OpenCore;


beforeAll(async () => {
  engineDir = mkdtempSync(join(tmpdir(), 'ringup-store-gw-engine-'));
  pg = await startPostgres();
  const gateway = await startStoreGateway(engineDir, () => undefined);
  // The engine's own records, read on its loopback address: what the registers' reports must add up to.
  engine = new GatewayClient({ baseUrl: gateway.loopbackUrl, auth: gateway.credentials });
  store = await startStoreHarness(pg, 'sync_store_gateway', { gateway });
  const [aDir, bDir] = [mkdtempSync(join(tmpdir(), 'ringup-gw-a-')), mkdtempSync(join(tmpdir(), 'ringup-gw-b-'))];
  dirs.push(aDir, bDir);
  a = await openCore(aDir, FAST);
  b = await openCore(bDir, FAST);
  await Promise.all([a.signInAs('Morgan', '1234'), b.signInAs('Morgan', '1234')]);
  value(await a.call('store:join', { address: store.url, code: store.setupCode, registerName: 'Front' }));
  const invitation = value(await a.call('store:invite'));
  value(await b.call('store:join', { address: store.url, code: invitation.code, registerName: 'Back' }));
  // The store's gateway applies from the next start, like a gateway saved on the Gateway screen.
  await Promise.all([a.core.close(), b.core.close()]);
  a = await openCore(aDir, FAST);
  b = await openCore(bDir, FAST);
  await Promise.all([a.signInAs('Morgan', '1234'), b.signInAs('Morgan', '1234')]);
});

afterAll(async () => {
  await Promise.all([a?.core.close(), b?.core.close()]);
  await store?.close();
  pg?.stop();
  for (const d of [...dirs, engineDir]) if (d) rmSync(d, { recursive: true, force: true });
});

test("both registers run on the store's gateway, pinned to the store server's certificate", async () => {
  for (const c of [a, b]) {
    const gateway = value(await c.call('gateway:check'));
    expect(gateway).toMatchObject({ mode: 'remote', baseUrl: `${store.url}/gateway/v2`, health: 'ok' });
  }
});

test('a card sale rung up on one register is refunded from the other; the store checks its card tenders against the gateway', async () => {
  value(await a.call('cart:add-open', { name: 'Open amount', amountCents: 1_234, taxCategory: 'exempt' }));
  const paid = value(await a.call('cart:pay-card', { card, clientRef: 'store-gateway-sale' }));
  expect(paid.status).toBe('paid');
  const saleId = paid.tenders.find((t) => t.kind === 'card')!.transactionId!;

  // The store's report, once the sale is at the store: its card tenders and the gateway's records agree.
  await until('the sale at the store', async () => (await store.pool.query("SELECT 1 FROM sales WHERE status = 'paid'")).rowCount === 1);
  const report = value(await a.call('store:report'));
  expect(report.cardCheck).toEqual({ tendersCents: 1_234, gatewayCents: 1_234, matches: true });

  // The other register refunds it, through the same gateway; the register that took it sees the refund on its sale.
  const refund = value(await b.call('transactions:refund', { id: saleId, amountCents: 1_234 }));
  expect(refund).toMatchObject({ approved: true, refund: { amountCents: 1_234 } });
  const sale = value(await a.call('transactions:view', { id: saleId }));
  expect(sale.refundedCents).toBe(1_234);
  expect(value(await a.call('transactions:view', { id: refund.refund.id })).amountCents).toBe(1_234);
});

test("each register's X counts only the card money it made; the two add up to the gateway's records", async () => {
  // A fresh period on each register (its Z closes what the test above rang up), not "since local midnight".
  // A Z ends the second before it is made: it is made once the clock has left the second of the last record above.
  const lastSecond = Math.floor(Date.now() / 1000);
  await until('the next second', () => Math.floor(Date.now() / 1000) > lastSecond);
  for (const c of [a, b]) value(await c.call('reports:z', {}));
  const sell = async (c: OpenCore, cents: number, ref: string) => {
    value(await c.call('cart:add-open', { name: 'Open amount', amountCents: cents, taxCategory: 'exempt' }));
    const paid = value(await c.call('cart:pay-card', { card, clientRef: ref }));
    expect(paid.status).toBe('paid');
    return paid.tenders.find((t) => t.kind === 'card')!.transactionId!;
  };
  const first = await sell(a, 1_111, 'own-x-a1');
  await sell(a, 2_222, 'own-x-a2');
  await sell(b, 3_333, 'own-x-b1');
  // Back refunds part of Front's sale: the refund is Back's.
  expect(value(await b.call('transactions:refund', { id: first, amountCents: 450 })).approved).toBe(true);

  const [xa, xb] = [value(await a.call('reports:x')), value(await b.call('reports:x'))];
  expect(xa.totals).toMatchObject({ sales: { count: 2, cents: 3_333 }, refunds: { count: 0, cents: 0 }, netCents: 3_333 });
  expect(xb.totals).toMatchObject({ sales: { count: 1, cents: 3_333 }, refunds: { count: 1, cents: 450 }, netCents: 2_883 });
  // Back's refund is of a sale of this period (Front's), not of an earlier one.
  expect(xb.earlier?.refunds.count).toBe(0);
  // The gateway's records over both periods: every register's, counted by the same rules.
  const records = await engine.listAllTransactions({ created_ts: `${Math.min(xa.from, xb.from)}|${Math.max(xa.to, xb.to)}` });
  const gateway = totalsOfCounted(records.map(counted));
  expect(gateway.sales.cents - gateway.refunds.cents).toBe(6_216);
  expect(xa.totals.netCents + xb.totals.netCents).toBe(gateway.sales.cents - gateway.refunds.cents);

  // The store's report agrees too: Back's refund of Front's sale is Back's, and the card tenders match the gateway's records.
  await until('the refund at the store', async () => (await store.pool.query('SELECT 1 FROM refunds WHERE cents = 450')).rowCount === 1);
  const report = value(await a.call('store:report'));
  const byName = Object.fromEntries(report.registers.map((r) => [r.name, r.cardCents]));
  expect(byName).toEqual({ Front: 1_234 + 1_111 + 2_222, Back: 3_333 - 1_234 - 450 });
  expect(report.cardCheck).toMatchObject({ matches: true });
});

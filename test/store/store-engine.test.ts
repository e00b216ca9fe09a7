/**
 * `--engine`: the store server hosts the gateway engine behind its own TLS. A register joins and
 * is given the shared gateway (its base URL through the address it used, and credentials); a sale
 * taken by one register through the proxy is refunded by another, and the engine's own records
 * (read at its loopback address) hold both. The proxy passes the engine's refusals through and
 * the store server writes no card number anywhere.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from 'node:https';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeProof, makeJoinCode } from '../../electron/common/store-code';
import { startStoreGateway } from '../../electron/store-server/store-engine';
import type { JoinAnswer } from '../../shared/store/store-wire';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { pinnedAgent, startStoreHarness, storeHttp, type StoreHarness } from '../helpers/store-server-harness';

const CARD = '4111111111111111';

let pg: PostgresServer;
let store: StoreHarness;
let engineDir: string;
let loopbackUrl: string;
let first: JoinAnswer;
let second: JoinAnswer;
const agents: Agent[] = [];
const logged: string[] = [];
const originalError = console.error;

beforeAll(async () => {
  // Everything the store server would log goes here, to be searched for card numbers.
  console.error = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
  engineDir = mkdtempSync(join(tmpdir(), 'ringup-store-engine-'));
  pg = await startPostgres();
  const gateway = await startStoreGateway(engineDir, (line) => logged.push(line));
  loopbackUrl = gateway.loopbackUrl;
  store = await startStoreHarness(pg, 'store_engine_test', { gateway });
  first = await store.join(store.setupCode!, 'Till 1');
  const code = makeJoinCode(store.identity.fingerprint);
  await store.http('/v1/invitations', { token: first.token, body: { codeProof: codeProof(code), sealedPepper: null } });
  second = await store.join(code, 'Till 2');
});
afterAll(async () => {
  console.error = originalError;
  for (const a of agents) a.destroy();
  await store?.close();
  pg?.stop();
  if (engineDir) rmSync(engineDir, { recursive: true, force: true });
});

/** A register's own connection to the shared gateway: pinned to the store's certificate. */
function gatewayOf(answer: JoinAnswer) {
  const g = answer.gateway!;
  const agent = pinnedAgent(store.identity.certificatePem, store.identity.fingerprint);
  agents.push(agent);
  const headers = { 'developer-id': g.developerId, 'user-id': g.userId, 'user-api-key': g.userApiKey };
  return <T>(method: string, path: string, body?: unknown) => storeHttp<T>(agent, `${g.baseUrl}/`, path.replace(/^\//, ''), { method, headers, ...(body !== undefined ? { body } : {}) });
}

interface Tx {
  transaction: { id: string; status_id: number; transaction_amount: string; location_id: string };
}

test('the join answer gives the shared gateway through the address the register used', () => {
  expect(first.gateway).toMatchObject({ baseUrl: `${store.url}/gateway/v2` });
  expect(first.gateway!.userApiKey).toMatch(/\S{8,}/);
  expect(second.gateway).toEqual(first.gateway);
});

test("a sale taken on one register is refunded from another, and the engine's records hold both", async () => {
  const till1 = gatewayOf(first);
  const till2 = gatewayOf(second);
  const sale = await till1<Tx>('POST', '/transactions', { transaction: { action: 'sale', payment_method: 'cc', account_number: CARD, exp_date: '1230', transaction_amount: '12.34' } });
  expect(sale.status).toBe(201);
  expect(JSON.stringify(sale.body)).not.toContain(CARD);
  const refund = await till2<Tx>('POST', '/transactions', { transaction: { action: 'refund', payment_method: 'cc', previous_transaction_id: sale.body.transaction.id, transaction_amount: '12.34' } });
  expect(refund.status, JSON.stringify(refund.body)).toBe(201);
  // The engine itself, at its loopback address (no proxy), has both.
  const g = first.gateway!;
  const direct = await fetch(`${loopbackUrl}/transactions/${refund.body.transaction.id}`, { headers: { 'developer-id': g.developerId, 'user-id': g.userId, 'user-api-key': g.userApiKey } });
  expect(direct.status).toBe(200);
  const rec = (await direct.json()) as { transaction: { previous_transaction_id: string; transaction_amount: string } };
  expect(rec.transaction).toMatchObject({ previous_transaction_id: sale.body.transaction.id, transaction_amount: '12.34' });
});

test("the engine's refusals pass through the proxy as they are; the store server wrote no card number", async () => {
  const g = first.gateway!;
  const agent = pinnedAgent(store.identity.certificatePem, store.identity.fingerprint);
  agents.push(agent);
  const wrongKey = await storeHttp<{ errors: Record<string, string[]> }>(agent, store.url, '/gateway/v2/transactions', {
    headers: { 'developer-id': g.developerId, 'user-id': g.userId, 'user-api-key': 'wrong' },
    body: { transaction: { action: 'sale', account_number: CARD, exp_date: '1230', transaction_amount: '1.00' } },
  });
  expect(wrongKey.status).toBe(401);
  expect(Object.values(wrongKey.body.errors).flat().length).toBeGreaterThan(0);
  const till1 = gatewayOf(first);
  const bad = await till1<{ errors: Record<string, string[]> }>('POST', '/transactions', { transaction: { action: 'sale', account_number: CARD, exp_date: '1230' } });
  expect(bad.status).toBe(422);
  expect(logged.join('\n')).not.toContain(CARD);
  const events = await store.pool.query('SELECT COUNT(*)::int AS n FROM store_events WHERE body::text LIKE $1', [`%${CARD}%`]);
  expect(events.rows[0].n).toBe(0);
});

test('a store server without --engine gives no gateway and answers /gateway with 404', async () => {
  const plain = await startStoreHarness(pg, 'store_no_engine');
  try {
    const joined = await plain.join(plain.setupCode!, 'Till 1');
    expect(joined.gateway).toBeNull();
    expect((await plain.http('/gateway/v2/transactions')).status).toBe(404);
  } finally {
    await plain.close();
  }
});

/**
 * A store server closes at once (SIGTERM, a deploy, a shutdown) whatever its peers are doing: a
 * register that died mid-handshake (a power cut between its TCP connect and its TLS hello) has a
 * connection the HTTP layer never took on, and a register holding a long poll has one it did.
 * Before, the first held the close for the TLS handshake timeout (120 s): the fault tests' store
 * servers, killed registers behind them, did not stop within a minute.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { startStoreHarness, type StoreHarness } from '../helpers/store-server-harness';
import { asRegister } from '../helpers/store-fixtures';

let pg: PostgresServer;
let store: StoreHarness;

beforeAll(async () => {
  pg = await startPostgres();
  store = await startStoreHarness(pg, 'store_server_close');
});
afterAll(() => pg?.stop());

test('close cuts a connection still in its TLS handshake and a held long poll, at once', { timeout: 30_000 }, async () => {
  const reg = asRegister(await store.join(store.setupCode!, 'Till 1'));
  // A long poll the server holds (nothing after seq 1000 yet).
  const held = store.http(`/v1/events?after=1000&waitMs=25000`, { token: reg.token }).catch((e: unknown) => e);
  await expect.poll(() => store.server.pullsWaiting()).toBe(1);
  // A peer that connected and said nothing since: no TLS hello.
  const silent = connect(store.server.port, '127.0.0.1');
  await new Promise<void>((r) => silent.once('connect', () => r()));
  const silentClosed = new Promise<void>((r) => silent.once('close', () => r()));
  silent.on('error', () => undefined);

  const t0 = Date.now();
  await store.close();
  expect(Date.now() - t0).toBeLessThan(5_000);
  await silentClosed;
  await held;
});

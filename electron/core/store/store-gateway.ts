/**
 * The store's shared gateway (issue 24, point 5): a store server started with `--engine` hosts
 * the embedded engine behind its own TLS (`https://<store>/gateway/v2`), and its join answer
 * says so. A register of that store then uses it as its remote gateway — every register of the
 * store on one gateway, so a card sale taken on one is refunded from another, and the store's
 * card totals check against one set of records. Each register still talks to it itself, with
 * its own offline queue (nothing about card payments goes through the sync).
 *
 * Trust: only the store server's certificate, pinned (gateway-client.ts `pinnedCertPem`). The
 * API key lives in the secret store, never in ringup.db; the rest beside the sync's state.
 *
 * When: like a gateway a manager saves on the Gateway screen, from the core's next start (the
 * engine, the clients and the health probe are set up once per run): the node host or the app
 * is restarted after joining. Environment variables (RINGUP_GATEWAY_URL…) still win; the store's
 * gateway wins over a gateway saved on the Gateway screen.
 */
import type { SecretStore } from '../../secrets/secret-store';
import { counted, totalsOfCounted } from '../transactions/approved-money';
import type { GatewayClient } from '../../client/gateway-client';
import type { RemoteGateway } from '../gateway/gateway-start';
import type { PosDatabase } from '../platform/pos-database';
import { readSyncState, type StoreGateway } from './sync-state';

/** The shared gateway's API key, in the secret store. */
export const STORE_GATEWAY_KEY_SECRET = 'store-gateway-key';

/** The v2 base URL of the store's gateway as its answer gave it (`…/gateway` or `…/gateway/v2`). */
export const v2BaseOf = (baseUrl: string) => (/\/v2\/?$/.test(baseUrl) ? baseUrl.replace(/\/+$/, '') : `${baseUrl.replace(/\/+$/, '')}/v2`);

/** The store's gateway as this run's remote gateway, when this register is in a store that shares one. */
export async function storeRemoteGateway(db: PosDatabase, secrets: SecretStore): Promise<RemoteGateway | undefined> {
  const s = readSyncState(db);
  if (!s.joined || !s.gateway || !s.certPem) return undefined;
  const key = await secrets.get(STORE_GATEWAY_KEY_SECRET);
  if (!key) return undefined;
  const g: StoreGateway = s.gateway;
  return {
    baseUrl: v2BaseOf(g.baseUrl),
    auth: { developerId: g.developerId, userId: g.userId, userApiKey: key.toString('utf8') },
    ...(g.locationId ? { locationId: g.locationId } : {}),
    ...(g.productTransactionId ? { productTransactionId: g.productTransactionId } : {}),
    pinnedCertPem: s.certPem,
  };
}

/**
 * The gateway's approved card money in a period (sales less refunds, cents), for the store's
 * card check: only when this run's gateway is the store's (otherwise it holds one register's
 * records, not the store's) — else null.
 */
export function gatewayCardCheck(client: GatewayClient, locationId: string | undefined, sharedBaseUrl: string | null): (from: number, to: number) => Promise<number | null> {
  return async (from, to) => {
    if (!sharedBaseUrl || client.baseUrl !== sharedBaseUrl) return null;
    try {
      const list = await client.listAllTransactions({ created_ts: `${from}|${to}`, ...(locationId ? { location_id: locationId } : {}) });
      const t = totalsOfCounted(list.map(counted));
      return t.sales.cents - t.refunds.cents;
    } catch {
      return null;
    }
  };
}

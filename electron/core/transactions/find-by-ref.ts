/**
 * Transactions whose receipt Ref (shortRefOf: the id's last 8 characters) is `ref`, whichever
 * register or tender made them: this register's clerk records first (one GET each), then the
 * gateway — the embedded engine's `id_suffix` filter answers in one request; a gateway that
 * ignores that filter (its rows do not all end so) is scanned newest first instead.
 * Simplification: the scan reads at most REF_SCAN_ROWS rows of the searched period (by default
 * the last REF_SCAN_DAYS days), so an older sale on such a gateway needs its date range.
 */
import { GatewayError, type GatewayClient } from '../../client/gateway-client';
import type { V2Transaction, V2TransactionFilters } from '../../client/v2-types';
import { shortRefOf, type ClerkRecords } from '../sales/clerk-records';

/** Find by Ref on a gateway without the `id_suffix` filter: how far back and how many rows it scans, and its page size. */
const REF_SCAN_DAYS = 90;
const REF_SCAN_ROWS = 20_000;
const REF_PAGE_SIZE = 1_000;

export interface FindByRefDeps {
  client: GatewayClient;
  clerks: ClerkRecords;
  locationId: string | undefined;
  now: () => number;
}

export async function findByRef(deps: FindByRefDeps, ref: string, from: number | undefined, to: number | undefined): Promise<V2Transaction[]> {
  const { client } = deps;
  const wanted = ref.toUpperCase();
  const found = new Map<string, V2Transaction>();
  for (const id of deps.clerks.idsByRef(wanted)) {
    try {
      found.set(id, await client.getTransaction(id));
    } catch (err) {
      if (!(err instanceof GatewayError && err.status === 404)) throw err;
    }
  }
  const location: V2TransactionFilters = deps.locationId ? { location_id: deps.locationId } : {};
  const asked: V2TransactionFilters = from !== undefined || to !== undefined ? { created_ts: `${from ?? 0}|${to ?? 4_102_444_800}` } : {};
  const keep = (rows: readonly V2Transaction[]) => rows.filter((t) => shortRefOf(t.id) === wanted).forEach((t) => found.set(t.id, t));
  const bySuffix = await client.listTransactions({ ...location, ...asked, id_suffix: wanted.toLowerCase() }, 1, REF_PAGE_SIZE);
  keep(bySuffix.items);
  if (bySuffix.items.some((t) => shortRefOf(t.id) !== wanted)) {
    // The gateway ignored the filter: page through the period instead, newest first.
    const nowS = Math.floor(deps.now() / 1000);
    const period = { ...location, created_ts: `${from ?? nowS - REF_SCAN_DAYS * 86_400}|${to ?? nowS + 86_400}` };
    for (let page = 1; page * REF_PAGE_SIZE <= REF_SCAN_ROWS; page++) {
      const { items } = await client.listTransactions(period, page, REF_PAGE_SIZE);
      keep(items);
      if (items.length < REF_PAGE_SIZE) break;
    }
  }
  return [...found.values()];
}

/**
 * Reading transactions at the counter: today's list (paged, as a snapshot), the search (by
 * receipt Ref, last four, amount, transaction_api_id, auth code, dates) and one transaction's
 * view. Each answers views with this app's own records added (clerk-views.ts).
 */
import { TODAY_PAGE_SIZE, type HandlerArg, type HandlerResults, type TransactionView } from '../../../shared/ipc/contract';
import { formatMoney as centsToDecimal } from '../../../shared/payments/money';
import { ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { V2Transaction, V2TransactionFilters } from '../../client/v2-types';
import type { UserDirectory } from '../auth/users';
import { withGatewayFailure } from '../gateway/guarded-call';
import type { TransactionViews } from './clerk-views';
import { findByRef, type FindByRefDeps } from './find-by-ref';
import { toView, totalsOf } from './transaction-view';

/** Unix seconds of local midnight of the day `ms` falls in. */
export function startOfLocalDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return Math.floor(d.getTime() / 1000);
}

export interface TransactionListDeps {
  client: GatewayClient;
  users: UserDirectory;
  locationId: string | undefined;
  now: () => number;
  views: TransactionViews;
}

export async function transactionsToday(deps: TransactionListDeps, { page, until: asked }: HandlerArg<'transactions:today'>): Promise<Result<HandlerResults['transactions:today']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  return withGatewayFailure(async () => {
    const since = startOfLocalDay(deps.now());
    // A snapshot: later pages keep page 1's upper bound, so sales made meanwhile do not shift them.
    const until = Math.min(asked ?? Math.floor(deps.now() / 1000), since + 86_399);
    const filters: V2TransactionFilters = { created_ts: `${since}|${until}` };
    if (deps.locationId) filters.location_id = deps.locationId;
    const { items, meta } = await deps.client.listTransactions(filters, page, TODAY_PAGE_SIZE);
    const rows = deps.views.viewsOf(items);
    const pageCount = meta.pagination?.pageCount ?? (items.length < TODAY_PAGE_SIZE ? page : page + 1);
    return ok({ rows, totals: totalsOf(rows), since, until, page, pageCount: Math.max(page, pageCount) });
  });
}

/** The search also reads this register's clerk records (a receipt Ref it made is found by them first). */
export interface TransactionSearchDeps extends TransactionListDeps, FindByRefDeps {}

export async function transactionsSearch(deps: TransactionSearchDeps, args: HandlerArg<'transactions:search'>): Promise<Result<TransactionView[]>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  return withGatewayFailure(async () => {
    let items: V2Transaction[];
    if (args.ref) {
      items = await findByRef(deps, args.ref, args.from, args.to);
    } else {
      const filters: V2TransactionFilters = {};
      if (deps.locationId) filters.location_id = deps.locationId;
      if (args.lastFour) filters.last_four = args.lastFour;
      if (args.amountCents !== undefined) filters.transaction_amount = centsToDecimal(args.amountCents);
      if (args.transactionApiId) filters.transaction_api_id = args.transactionApiId;
      if (args.authCode) filters.auth_code = args.authCode.toUpperCase();
      if (args.from !== undefined || args.to !== undefined) filters.created_ts = `${args.from ?? 0}|${args.to ?? 4_102_444_800}`;
      items = (await deps.client.listTransactions(filters, 1, 500)).items;
    }
    // The gateway's text filters match substrings; keep only exact matches (and apply every filter to Ref hits).
    const exact = items.filter((t) => {
      const ts = Number(t.created_ts ?? 0);
      return (
        (!args.lastFour || (t.last_four ?? '').endsWith(args.lastFour)) &&
        (args.amountCents === undefined || toView(t).requestedCents === args.amountCents) &&
        (!args.transactionApiId || t.transaction_api_id === args.transactionApiId) &&
        (!args.authCode || (t.auth_code ?? '').toUpperCase() === args.authCode.toUpperCase()) &&
        (args.from === undefined || ts >= args.from) &&
        (args.to === undefined || ts <= args.to)
      );
    });
    return ok(deps.views.viewsOf(exact));
  });
}

export async function transactionView(deps: Pick<TransactionListDeps, 'users' | 'views'>, { id }: HandlerArg<'transactions:view'>): Promise<Result<TransactionView>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  return withGatewayFailure(async () => ok(await deps.views.viewOne(id)));
}

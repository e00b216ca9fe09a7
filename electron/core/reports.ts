/**
 * End-of-day reports. X: the period so far, any time, changes nothing. Z: closes the
 * period — numbered, stored (z-report-store.ts), and the next report starts the second
 * after it. The period runs from the last Z (or local midnight before the first one) to
 * now (for a Z, the second before now, so a sale made in the very second of a Z falls in
 * the next day instead of in neither). Totals use approved-money.ts, the same rules as the batches.
 *
 * Simplifications: Z does not settle the batch (settling is its own step on the Batches
 * screen); the offline and declined-after-forward counts come from the offline queue
 * (issue 13), by when the sale was taken.
 */
import type { BreakdownRow, DayReport, HandlerMap, HourBucket, PaperSize } from '../../shared/ipc/contract';
import { fail, ok, type Result } from '../../shared/result';
import type { GatewayClient } from '../client/gateway-client';
import type { V2TransactionFilters } from '../client/v2-types';
import { addToBreakdown, counted, sortedBreakdown, totalsOfCounted, type CountedTransaction } from './approved-money';
import { guardedCall } from './guarded-call';
import type { PosDatabase } from './pos-database';
import { clerkNamesOf } from './clerk-records';
import type { UserDirectory } from './users';
import { offlineCountsBetween } from './offline-queue';
import { ZReportStore } from './z-report-store';
import { cashSummary } from './cash-drawer';
import { cartSalesSummary } from './cart-report';

export const REPORT_MESSAGES = {
  notRecorded: 'Not recorded',
  closedMeanwhile: 'Another Z report closed this period a moment ago. Open the Z history to see it.',
  noSuchZ: 'There is no Z report with that number.',
  printInBrowser: 'Printing goes through the browser here.',
} as const;

export interface ReportsDeps {
  client: GatewayClient;
  users: UserDirectory;
  db: PosDatabase;
  locationId: string | undefined;
  /** Prints the report on screen or saves it as PDF (desktop shell); absent in the node host. */
  printReport?: (name: string, paper: PaperSize) => Promise<string | null>;
  now?: () => number;
}

type ReportsHandlers = Pick<HandlerMap, 'reports:x' | 'reports:z' | 'reports:z-list' | 'reports:z-view' | 'reports:print'>;

function startOfLocalDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return Math.floor(d.getTime() / 1000);
}

/** Sales and tips per clerk; a clerk number that is a Ringup user's id shows the user's name. */
export function byEmployee(list: readonly CountedTransaction[], names: ReadonlyMap<string, string>): BreakdownRow[] {
  const map = new Map<string, BreakdownRow>();
  for (const c of list) {
    const key = c.clerk ?? '';
    addToBreakdown(map, key || '?', key ? (names.get(key) ?? key) : REPORT_MESSAGES.notRecorded, c);
  }
  return sortedBreakdown(map);
}

export function byHour(list: readonly CountedTransaction[]): HourBucket[] {
  const hours: HourBucket[] = Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0, cents: 0 }));
  for (const c of list) {
    if (c.as !== 'sale') continue;
    const h = hours[new Date(c.createdTs * 1000).getHours()]!;
    h.count++;
    h.cents += c.approvedCents;
  }
  return hours;
}

export function createReportsHandlers(deps: ReportsDeps): ReportsHandlers {
  const { client, users } = deps;
  const now = deps.now ?? Date.now;
  const store = new ZReportStore(deps.db);
  let zChain: Promise<unknown> = Promise.resolve();

  async function build(kind: 'x' | 'z', generatedBy: string): Promise<DayReport> {
    const nowSec = Math.floor(now() / 1000);
    const last = store.lastClosedTo();
    const from = last !== null ? last + 1 : startOfLocalDay(now());
    // A Z ends the second before now (a sale in this very second goes to the next day); an X shows everything so far.
    const to = Math.max(from, kind === 'z' ? nowSec - 1 : nowSec);
    const filters: V2TransactionFilters = { created_ts: `${from}|${to}` };
    if (deps.locationId) filters.location_id = deps.locationId;
    const list = (await client.listAllTransactions(filters)).map(counted);
    // The gateway carries each user's clerk_number (clerkNumberOf their id; masked when it looks like a card); show their name.
    const offline = offlineCountsBetween(deps.db, from, to);
    const names = clerkNamesOf(users.list());
    return {
      kind,
      number: kind === 'z' ? store.nextNumber() : null,
      from,
      to,
      generatedAt: nowSec,
      generatedBy,
      totals: totalsOfCounted(list),
      byEmployee: byEmployee(list, names),
      byHour: byHour(list),
      offlineCount: offline.offline,
      declinedAfterForwardCount: offline.declinedAfterForward,
      cash: cashSummary(deps.db, from, to),
      cartSales: cartSalesSummary(deps.db, from, to),
    };
  }

  const guarded = <T>(fn: (who: string) => Promise<Result<T>>): Promise<Result<T>> => guardedCall(users, 'manager', (s) => fn(s.user.name));

  return {
    'reports:x': async () => guarded(async (who) => ok(await build('x', who))),

    'reports:z': async () =>
      guarded((who) => {
        // One Z at a time: a second press waits for the first and closes the next (empty) period.
        const run = zChain.then(async (): Promise<Result<DayReport>> => {
          const report = await build('z', who);
          if (!store.save({ ...report, number: report.number! })) return fail('conflict', REPORT_MESSAGES.closedMeanwhile);
          return ok(report);
        });
        zChain = run.catch(() => undefined);
        return run;
      }),

    'reports:z-list': async () => guarded(async () => ok(store.list())),

    'reports:z-view': async ({ number }) =>
      guarded(async () => {
        const r = store.get(number);
        return r ? ok(r) : fail('not_found', REPORT_MESSAGES.noSuchZ);
      }),

    'reports:print': async ({ paper, name }) =>
      guarded(async () => {
        if (!deps.printReport) return fail('use_browser_print', REPORT_MESSAGES.printInBrowser);
        return ok({ savedTo: await deps.printReport(name, paper) });
      }),
  };
}

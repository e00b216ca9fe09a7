/**
 * End-of-day reports. X: the period so far, any time, changes nothing. Z: closes the
 * period — numbered, stored (z-report-store.ts), and the next report starts the second
 * after it. The period runs from the last Z (or local midnight before the first one) to
 * now (for a Z, the second before now, so a sale made in the very second of a Z falls in
 * the next day instead of in neither).
 *
 * Card money: the gateway's transactions created in the period, counted with
 * approved-money.ts (the same rules as the batches), so that part reconciles with the
 * engine's records. Cash: the app's drawer records (cash-tenders-report.ts). The
 * all-tenders lines add the two.
 *
 * A void or refund counts in the period in which it happens, not the sale's: a Z stays
 * as it was printed, so a sale voided after its day closed is taken back in the period of
 * the void (the engine's modified_ts of a voided record is the void's time: nothing
 * changes a voided record after), and the report says it concerns an earlier sale. What
 * the earlier report counted is read from the record's changelog (its status before the
 * void); a gateway without changelogs is taken to have voided an approved sale or refund.
 * The sum of the Z reports is then what the gateway and the drawer hold.
 *
 * On the store's shared gateway (issue 24) the gateway's records are every register's: each
 * register's X and Z count only the records it made (own-transactions.ts), filtered as soon as
 * the list is read, before anything is counted, so the registers' reports add up to the gateway's.
 *
 * Simplifications: Z does not settle the batch (settling is its own step on the Batches
 * screen); the offline and declined-after-forward counts come from the offline queue
 * (issue 13), by when the sale was taken; a tip adjusted or an amount reversed after the
 * sale's day closed is not carried into a later period (only voids and refunds are); the
 * tips of a voided earlier sale are not taken back from the tips by employee; ACH debits
 * are listed while pending at the bank and counted in no total.
 */
import type { AllTenderTotals, BreakdownRow, CashCount, DayReport, EarlierPeriodLines, HandlerMap, HourBucket, MoneyLine, MoneyTotals, PaperSize, ReportStoreHeader } from '../../../shared/ipc/contract';
import { parseMoney } from '../../../shared/payments/money';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { V2Transaction, V2TransactionFilters } from '../../client/v2-types';
import { addToBreakdown, counted, sortedBreakdown, totalsOfCounted, type CountedTransaction } from '../transactions/approved-money';
import { withGatewayFailure } from '../gateway/guarded-call';
import { callerSession } from '../../ipc/channel-rules';
import type { PosDatabase } from '../platform/pos-database';
import { clerkNamesOf } from '../sales/clerk-records';
import type { UserDirectory } from '../auth/users';
import { ALL_TRANSACTIONS, ownTransactions } from './own-transactions';
import { ZReportStore } from './z-report-store';
import { inThreadFigures, type PeriodFiguresSource } from './report-reader';
import { STATUS, TYPE } from '../transactions/transaction-view';

export const REPORT_MESSAGES = {
  notRecorded: 'Not recorded',
  closedMeanwhile: 'Another Z report closed this period a moment ago. Open the Z history to see it.',
  noSuchZ: 'There is no Z report with that number.',
  printInBrowser: 'Printing goes through the browser here.',
} as const;

/** ACH debits (type 50) the bank has not settled yet: 131 pending origination, 132 originating, 133 originated. */
const ACH_DEBIT_TYPE = 50;
const ACH_PENDING = new Set([131, 132, 133]);

export interface ReportsDeps {
  client: GatewayClient;
  users: UserDirectory;
  db: PosDatabase;
  locationId: string | undefined;
  /** The store's name, address and phone for the report's header. */
  store?: () => ReportStoreHeader;
  /** Prints the report on screen or saves it as PDF (desktop shell); absent in the node host. */
  printReport?: (name: string, paper: PaperSize) => Promise<string | null>;
  /**
   * This register runs on its store's shared gateway (store-gateway.ts), whose records are every
   * register's: its reports count only the transactions it made (own-transactions.ts).
   */
  sharedGateway?: boolean;
  /** Where the ringup.db figures are read (report-reader.ts): a worker thread in the app; default, this thread. */
  figures?: PeriodFiguresSource;
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

const line = (): MoneyLine => ({ count: 0, cents: 0 });
const add = (a: MoneyLine, b: MoneyLine): MoneyLine => ({ count: a.count + b.count, cents: a.cents + b.cents });

/** Card + cash, less what earlier sales voided now take back: declared once, from the parts. */
export function allTenderTotals(card: MoneyTotals, cash: { sales: MoneyLine; refunds: MoneyLine; taxCents: number }, earlier: EarlierPeriodLines): AllTenderTotals {
  const sales = add(card.sales, cash.sales);
  const refunds = add(card.refunds, cash.refunds);
  return {
    sales,
    refunds,
    netCents: sales.cents - refunds.cents - earlier.voidedSales.cents + earlier.voidedRefunds.cents,
    taxCents: card.taxCents + cash.taxCents - earlier.voidedSalesTaxCents,
  };
}

/** The record as it was before its void, from its changelog; an approved sale or refund when the gateway keeps none. */
function beforeVoid(t: V2Transaction): V2Transaction {
  const logs = Array.isArray(t.changelogs) ? (t.changelogs as Array<{ action?: string; changes?: Record<string, [unknown, unknown]> }>) : [];
  const before = logs.find((l) => l.action === 'void')?.changes?.status_id?.[0];
  const status = typeof before === 'number' ? before : Number(t.type_id) === TYPE.refund ? STATUS.refunded : STATUS.approved;
  return { ...t, status_id: status };
}

export function createReportsHandlers(deps: ReportsDeps): ReportsHandlers {
  return createReports(deps).handlers;
}

/** How a Z is closed: by whom, with what counted, and for which store day (issue 24: a store's Z closes each register's). */
export interface ZClose {
  generatedBy: string;
  count?: { countedCashCents?: number | undefined; floatCents?: number | undefined } | undefined;
  /** The store day this Z closes for (store-day-close.ts), written into the report. */
  storeDay?: number;
}

/**
 * The reports' channels, and `closeZ`: the one way a Z is closed, for the channel (a manager
 * at this register) and for a store's Z applied here (no one at this register pressed it).
 */
export function createReports(deps: ReportsDeps): { handlers: ReportsHandlers; closeZ: (z: ZClose) => Promise<Result<DayReport>> } {
  const { client, users } = deps;
  const now = deps.now ?? Date.now;
  const store = new ZReportStore(deps.db);
  const figures = deps.figures ?? inThreadFigures(deps.db);
  const own = deps.sharedGateway ? ownTransactions(deps.db) : ALL_TRANSACTIONS;
  let zChain: Promise<unknown> = Promise.resolve();

  const scoped = (filters: V2TransactionFilters): V2TransactionFilters => (deps.locationId ? { ...filters, location_id: deps.locationId } : filters);

  /** Voids made in the period of sales and refunds created before it: what the earlier reports counted, taken back now. */
  async function earlierVoids(from: number, to: number): Promise<Pick<EarlierPeriodLines, 'voidedSales' | 'voidedSalesTaxCents' | 'voidedRefunds'>> {
    // On a shared gateway, the voids this register made (own-transactions.ts), before anything is counted.
    const voided = own.voided(await client.listAllTransactions(scoped({ status_id: String(STATUS.voided), modified_ts: `${from}|${to}` }))).filter((t) => Number(t.created_ts ?? 0) < from);
    const out = { voidedSales: line(), voidedSalesTaxCents: 0, voidedRefunds: line() };
    for (const t of voided) {
      const c = counted(beforeVoid(await client.getTransactionExpanded(t.id, ['changelogs'])));
      if (c.as === 'sale') {
        out.voidedSales.count++;
        out.voidedSales.cents += c.approvedCents;
        out.voidedSalesTaxCents += c.taxCents;
      } else if (c.as === 'refund') {
        out.voidedRefunds.count++;
        out.voidedRefunds.cents += c.approvedCents;
      }
    }
    return out;
  }

  async function build(kind: 'x' | 'z', generatedBy: string, count?: { countedCashCents?: number | undefined; floatCents?: number | undefined }): Promise<DayReport> {
    const nowSec = Math.floor(now() / 1000);
    const last = store.lastClosedTo();
    const from = last !== null ? last + 1 : startOfLocalDay(now());
    // A Z ends the second before now (a sale in this very second goes to the next day); an X shows everything so far.
    const to = Math.max(from, kind === 'z' ? nowSec - 1 : nowSec);
    // The ringup.db part (cash, drawer, offline counts, items sold) is read off this thread while the card part is asked of the gateway.
    const local = figures.figures(from, to);
    // Should a gateway call fail first, the figures' own failure is not left unhandled.
    local.catch(() => undefined);
    // On the store's shared gateway the list is every register's: only what this register made is
    // counted (own-transactions.ts), filtered here, before any total, breakdown or earlier-refund line.
    const listed = await client.listAllTransactions(scoped({ created_ts: `${from}|${to}` }));
    const raw = own.made(listed);
    const list = raw.map(counted);
    // Every record of the period (not only this register's): a refund here of a sale another register took today is not of an earlier sale.
    const byId = new Map(listed.map((t) => [t.id, t]));
    const totals = totalsOfCounted(list);

    // Refunds of sales made before the period (already in the refunds; said apart).
    const earlierRefunds = line();
    raw.forEach((t, i) => {
      const prev = t.previous_transaction_id;
      if (list[i]!.as === 'refund' && prev && !byId.has(prev)) {
        earlierRefunds.count++;
        earlierRefunds.cents += list[i]!.approvedCents;
      }
    });
    const achPending = line();
    for (const t of raw) {
      if (Number(t.type_id) === ACH_DEBIT_TYPE && ACH_PENDING.has(Number(t.status_id))) {
        achPending.count++;
        achPending.cents += parseMoney(t.transaction_amount) ?? 0;
      }
    }

    const voids = await earlierVoids(from, to);
    const { cash, drawer, offline, cartSales } = await local;
    const earlier: EarlierPeriodLines = { ...voids, refunds: add(earlierRefunds, cash.refundsOfEarlierSales) };
    const allTenders = allTenderTotals(totals, cash.totals, earlier);
    const hours = byHour(list).map((h) => ({ hour: h.hour, count: h.count + cash.byHour[h.hour]!.count, cents: h.cents + cash.byHour[h.hour]!.cents }));

    let cashCount: CashCount | undefined;
    if (count?.countedCashCents !== undefined) {
      const floatCents = count.floatCents ?? 0;
      const expectedCents = floatCents + drawer.expectedCents;
      cashCount = { floatCents, countedCents: count.countedCashCents, expectedCents, overShortCents: count.countedCashCents - expectedCents };
    }

    // The gateway carries each user's clerk_number (clerkNumberOf their id; masked when it looks like a card); show their name.
    const names = clerkNamesOf(users.list());
    return {
      kind,
      number: kind === 'z' ? store.nextNumber() : null,
      from,
      to,
      generatedAt: nowSec,
      generatedBy,
      ...(deps.store ? { store: deps.store() } : {}),
      totals,
      earlier,
      cashTenders: cash.totals,
      allTenders,
      achPending,
      ...(cashCount ? { cashCount } : {}),
      byEmployee: byEmployee(list, names),
      byHour: hours,
      offlineCount: offline.offline,
      declinedAfterForwardCount: offline.declinedAfterForward,
      cash: drawer,
      cartSales,
    };
  }

  // Managers only (reports.ts declares it, and that X, Z and prints are audited; the channel rules enforce both).
  const guarded = <T>(fn: (who: string) => Promise<Result<T>>): Promise<Result<T>> => withGatewayFailure(() => fn(callerSession().user.name));

  const closeZ = (z: ZClose): Promise<Result<DayReport>> => {
    // One Z at a time: a second press waits for the first and closes the next (empty) period.
    const run = zChain.then(async (): Promise<Result<DayReport>> => {
      // A Z ends the second before now: right after another Z (the same second) it waits for the next
      // second, so its period never reaches into the present, where a sale would fall into a closed day.
      const last = store.lastClosedTo();
      const wait = last === null ? 0 : (last + 2) * 1000 - now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const built = await build('z', z.generatedBy, z.count);
      const report = z.storeDay !== undefined ? { ...built, storeDay: z.storeDay } : built;
      if (!store.save({ ...report, number: report.number! })) return fail('conflict', REPORT_MESSAGES.closedMeanwhile);
      return ok(report);
    });
    zChain = run.catch(() => undefined);
    return run;
  };

  const handlers: ReportsHandlers = {
    'reports:x': async () => guarded(async (who) => ok(await build('x', who))),

    'reports:z': async (args) => guarded((who) => closeZ({ generatedBy: who, count: args })),

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
  return { handlers, closeZ };
}

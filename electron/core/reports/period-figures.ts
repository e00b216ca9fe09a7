/**
 * The part of an end-of-day report that comes from the app's own database (ringup.db): the
 * cash (cash-tenders-report.ts), the drawer's expected cash (cash-drawer.ts), the offline
 * queue's counts and the items sold from the carts (cart-report.ts). Over a busy day of up to
 * 200,000 cart sales these are seconds of synchronous SQLite work, so the core reads them on a
 * worker thread with a connection of its own (report-reader.ts); this function is what that
 * thread runs, and what the core runs on its own thread where no worker is built (unit tests).
 *
 * All four are read in one read transaction: one snapshot of the database, so a sale committed
 * while the report is being read is in all of the figures or in none.
 */
import type { CartSalesSummary, CashSummary } from '../../../shared/ipc/reports';
import { cashSummary } from '../cart/cash-drawer';
import type { PosDatabase } from '../platform/pos-database';
import { offlineCountsBetween } from '../queue/offline-queue';
import { cartSalesSummary } from './cart-report';
import { cashPeriod, type CashPeriod } from './cash-tenders-report';

export interface PeriodFigures {
  cash: CashPeriod;
  drawer: CashSummary;
  offline: { offline: number; declinedAfterForward: number };
  cartSales: CartSalesSummary;
}

/** The ringup.db figures between two Unix-second bounds (inclusive). */
export function periodFigures(db: PosDatabase, fromSec: number, toSec: number): PeriodFigures {
  return db.transaction(() => ({
    cash: cashPeriod(db, fromSec, toSec),
    drawer: cashSummary(db, fromSec, toSec),
    offline: offlineCountsBetween(db, fromSec, toSec),
    cartSales: cartSalesSummary(db, fromSec, toSec),
  }))();
}

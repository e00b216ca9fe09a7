/**
 * The day's money as the records hold it and as the End of day screen shows it, for the specs
 * that check one against the other: the engine's approved card sales, refunds, tips and tax
 * (its SQLite file) and the drawer's cash (the app's database), in cents.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import type { HostInfo } from '../fixtures';

/** "$1,234.56" / "-$1.00" → cents. */
export function centsOf(text: string | null): number {
  const m = /^(-?)\$([\d,]+)\.(\d\d)$/.exec((text ?? '').trim());
  if (!m) throw new Error(`not an amount: ${text}`);
  return (m[1] ? -1 : 1) * (Number(m[2]!.replace(/,/g, '')) * 100 + Number(m[3]));
}

/** The engine's records (its SQLite file) and the drawer's (the app's database) for everything this host has done. */
export function recordSums(app: HostInfo) {
  const engine = new Database(join(app.dataDir, 'gateway', 'gateway.sqlite'), { readonly: true });
  const drawer = new Database(join(app.dataDir, 'ringup.db'), { readonly: true });
  try {
    const one = (sql: string) => (engine.prepare(sql).get() as { c: number }).c;
    const docs = engine.prepare('SELECT doc FROM transactions WHERE type_id = 20 AND status_id = 101').all() as Array<{ doc: string }>;
    const part = (doc: string, k: 'tip_amount' | 'tax') => Math.round(Number((JSON.parse(doc) as Record<string, string | null>)[k] ?? 0) * 100);
    return {
      cardSales: one('SELECT COALESCE(SUM(auth_amount), 0) AS c FROM transactions WHERE type_id = 20 AND status_id = 101'),
      cardRefunds: one('SELECT COALESCE(SUM(auth_amount), 0) AS c FROM transactions WHERE type_id = 30 AND status_id IN (101, 111)'),
      tips: docs.reduce((a, d) => a + part(d.doc, 'tip_amount'), 0),
      cardTax: docs.reduce((a, d) => a + part(d.doc, 'tax'), 0),
      cashIn: (drawer.prepare('SELECT COALESCE(SUM(cents), 0) AS c FROM cash_movements WHERE cents > 0').get() as { c: number }).c,
      cashOut: (drawer.prepare('SELECT COALESCE(SUM(-cents), 0) AS c FROM cash_movements WHERE cents < 0').get() as { c: number }).c,
      /** The tax shares the cash tenders of paid (or due) carts carry. */
      cashTax: (
        drawer
          .prepare(
            `SELECT COALESCE(SUM(t.tax_cents), 0) AS c FROM cart_tenders t JOIN carts k ON k.id = t.cart_id
              WHERE t.kind = 'cash' AND t.status = 'approved' AND k.status IN ('paid', 'due')`,
          )
          .get() as { c: number }
      ).c,
    };
  } finally {
    engine.close();
    drawer.close();
  }
}

/** The screen's totals, read as a merchant reads them. */
export async function screenTotals(page: Page) {
  const read = async (id: string) => centsOf(await page.getByTestId(id).textContent());
  /** Refunds print as "-$x": the amount given back. */
  const back = async (id: string) => 0 - (await read(id)) || 0;
  return {
    cardSales: await read('report-card-sales'),
    cashSales: await read('report-cash-sales'),
    sales: await read('report-sales'),
    cardRefunds: await back('report-refunds'),
    cashRefunds: await back('report-cash-refunds'),
    net: await read('report-net'),
    tax: await read('report-tax'),
    tips: await read('report-tips'),
  };
}

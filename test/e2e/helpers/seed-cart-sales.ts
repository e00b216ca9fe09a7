/**
 * Fills a host's ringup.db with a busy day of cash cart sales for the responsiveness test and
 * bench: each a paid cart with one open-amount line, its cash tender and the drawer's cash
 * movement, the rows the cart code itself writes (cart-store.ts, cash-drawer.ts), in one
 * transaction. Selling 200,000 carts through the app would take hours; the report then reads
 * these rows like any others. The host may be running: the rows go in while it waits (WAL),
 * and nothing in them belongs to a signed-in user's open cart.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';

export interface SeededCartSales {
  carts: number;
  /** Cash taken over all of them (each cart paid exactly, no tax). */
  cashCents: number;
}

/** `count` paid cash carts closed at `atMs` (default: now), with amounts $1.00–$4.99. */
export function seedCartSales(dataDir: string, count: number, atMs: number = Date.now()): SeededCartSales {
  const db = new Database(join(dataDir, 'ringup.db'));
  try {
    db.pragma('busy_timeout = 10000');
    const cart = db.prepare(`INSERT INTO carts (id, user_id, status, total_cents, created_ts, closed_ts) VALUES (?, 'seed-clerk', 'paid', ?, ?, ?)`);
    const line = db.prepare(`INSERT INTO cart_lines (id, cart_id, seq, item_id, name, unit_cents, quantity, tax_category) VALUES (?, ?, 1, NULL, ?, ?, 1, 'standard')`);
    const tender = db.prepare(
      `INSERT INTO cart_tenders (id, cart_id, seq, kind, status, requested_cents, approved_cents, tendered_cents, change_cents, created_ts) VALUES (?, ?, 1, 'cash', 'approved', ?, ?, ?, 0, ?)`,
    );
    const cash = db.prepare(`INSERT INTO cash_movements (cart_id, kind, cents, ts) VALUES (?, 'sale', ?, ?)`);
    let cashCents = 0;
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const id = `seed-cart-${i}`;
        const cents = 100 + (i % 400);
        cart.run(id, cents, atMs, atMs);
        line.run(`${id}-line`, id, `Seeded item ${i % 50}`, cents);
        tender.run(`${id}-cash`, id, cents, cents, cents, atMs);
        cash.run(id, cents, atMs);
        cashCents += cents;
      }
    })();
    return { carts: count, cashCents };
  } finally {
    db.close();
  }
}

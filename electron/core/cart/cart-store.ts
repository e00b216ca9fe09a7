/**
 * Carts in the app database (`carts`, `cart_lines`, `cart_tenders`): each counter user has
 * at most one open cart, which survives a restart until it is paid, cleared or cancelled.
 * A line copies its item's name, price and codes when added. Every figure is recomputed
 * from the rows with cart-math.ts; the stored total is only a convenience for reports.
 *
 * Lines and discounts change only before the first tender: once money was taken, the
 * total it was taken against stays (cancel the sale to start over).
 */
import { randomUUID } from 'node:crypto';
import { computeCart, type Discount } from '../../../shared/cart/cart-math';
import { balanceCents, type SaleStatus, type Tender, type TenderState } from '../../../shared/cart/tender-machine';
import type { CatalogueItem, LineChoice } from '../../../shared/ipc/catalogue';
import { choiceKey, type ResolvedLine } from '../../../shared/cart/line-choice';
import type { CartLineView, CartSaleRow, CartView } from '../../../shared/ipc/cart';
import { tenderLabel } from '../../../shared/cart/tender-label';
import { DISCOUNT_COPY } from '../../../shared/cart/discount-guard';
import type { PosDatabase } from '../platform/pos-database';
import { StockFollowsSales } from '../catalogue/stock-follows-sales';

interface CartRow {
  id: string;
  user_id: string;
  status: SaleStatus;
  cart_discount: string | null;
  discount_approved_by: string | null;
  discount_approved_bp: number | null;
  total_cents: number;
  created_ts: number;
  closed_ts: number | null;
  /** Issue 23: the cart's latest stock warning (stock-follows-sales.ts). */
  stock_warning: string | null;
}
interface LineRow {
  id: string;
  item_id: string | null;
  name: string;
  unit_cents: number;
  quantity: number;
  tax_category: string;
  product_code: string;
  unit_code: string;
  commodity_code: string;
  discount: string | null;
  refunded: number;
  /** The variant and modifiers it was sold with (issue 23): JSON of a LineChoice, or null. */
  choice: string | null;
}
interface TenderRow {
  id: string;
  kind: Tender['kind'];
  status: Tender['status'];
  requested_cents: number;
  approved_cents: number;
  tendered_cents: number;
  change_cents: number;
  transaction_id: string | null;
  refunded_cents: number;
  tax_cents: number;
  tip_cents: number;
}

export const CART_MESSAGES = {
  noLine: 'That line is not in the cart.',
  locked: 'A payment was already taken for this sale, so its items cannot change. Cancel the sale to start over.',
  notOpen: 'This sale is closed.',
  noCart: 'That sale is not on this register.',
  /** A due cart being collected: its lines are what was sold and paid for once. */
  dueLocked: 'This sale was paid before, so its items stay as sold. Collect what is due, or put it back.',
} as const;

const parseDiscount = (s: string | null): Discount | null => (s ? (JSON.parse(s) as Discount) : null);
const parseChoice = (s: string | null): LineChoice | null => (s ? (JSON.parse(s) as LineChoice) : null);

export class CartStore {
  /** Counted stock follows the cart's status and returns, in the same transactions (issue 23). */
  private readonly stock: StockFollowsSales;

  constructor(
    private readonly db: PosDatabase,
    private readonly taxRate: (category: string) => number,
    private readonly now: () => number = Date.now,
  ) {
    this.stock = new StockFollowsSales(db, now);
  }

  /** After a change of the cart's lines: the stock warning, once per item per cart (stock-follows-sales.ts). */
  linesChanged(cartId: string): void {
    this.stock.linesChanged(cartId);
  }

  /**
   * The user's cart to work on: the due cart they are collecting (issue 20, point 4), else
   * their open (or cancelling) cart; a new cart when none.
   */
  openCartOf(userId: string): string {
    const collecting = this.db.prepare(`SELECT id FROM carts WHERE collector_id = ? AND status = 'due'`).get(userId) as { id: string } | undefined;
    if (collecting) return collecting.id;
    const row = this.db.prepare(`SELECT id FROM carts WHERE user_id = ? AND status IN ('open', 'cancelling')`).get(userId) as { id: string } | undefined;
    if (row) return row.id;
    const id = randomUUID();
    this.db.prepare(`INSERT INTO carts (id, user_id, status, created_ts) VALUES (?, ?, 'open', ?)`).run(id, userId, this.now());
    return id;
  }

  /** A cart's status and who is collecting it (a due cart), by id and name. */
  collection(cartId: string): { status: SaleStatus; collectorId: string | null; collector: string | null } {
    return this.db
      .prepare('SELECT c.status, c.collector_id AS collectorId, u.name AS collector FROM carts c LEFT JOIN pos_users u ON u.id = c.collector_id WHERE c.id = ?')
      .get(cartId) as { status: SaleStatus; collectorId: string | null; collector: string | null };
  }

  /** Makes a due cart `userId`'s cart to tender (from `from`, its collector when taken over); false when it is no longer due or someone else took it meanwhile. */
  collect(cartId: string, userId: string, from: string | null): boolean {
    return this.db.prepare(`UPDATE carts SET collector_id = ? WHERE id = ? AND status = 'due' AND collector_id IS ?`).run(userId, cartId, from).changes === 1;
  }

  /** The due cart goes back to Cart sales, still due, for anyone to collect later. */
  putBack(cartId: string): void {
    this.db.prepare(`UPDATE carts SET collector_id = NULL WHERE id = ?`).run(cartId);
  }

  exists(cartId: string): boolean {
    return this.db.prepare('SELECT 1 FROM carts WHERE id = ?').get(cartId) !== undefined;
  }

  cartOfTransaction(transactionId: string): string | null {
    const r = this.db.prepare('SELECT cart_id FROM cart_tenders WHERE transaction_id = ?').get(transactionId) as { cart_id: string } | undefined;
    return r?.cart_id ?? null;
  }

  /** The status of the cart a card transaction is a tender of, or null when it is no cart's. */
  statusOfTransaction(transactionId: string): SaleStatus | null {
    const r = this.db.prepare('SELECT c.status FROM cart_tenders t JOIN carts c ON c.id = t.cart_id WHERE t.transaction_id = ?').get(transactionId) as { status: SaleStatus } | undefined;
    return r?.status ?? null;
  }

  /**
   * A card tender's transaction was voided at the gateway outside the cart's own cancel (issue 20):
   * the cart follows. The tender is reversed (it collected nothing), so its amount is the balance
   * again; a paid cart becomes `due`. A cancelling cart is left to its cancel, which marks its
   * tenders itself.
   */
  tenderVoided(transactionId: string): void {
    this.db.transaction(() => {
      const r = this.db.prepare(`SELECT t.id, c.id AS cart_id, c.status FROM cart_tenders t JOIN carts c ON c.id = t.cart_id WHERE t.transaction_id = ? AND t.status = 'approved'`).get(transactionId) as
        | { id: string; cart_id: string; status: SaleStatus }
        | undefined;
      if (!r || (r.status !== 'open' && r.status !== 'paid' && r.status !== 'due')) return;
      this.db.prepare(`UPDATE cart_tenders SET status = 'reversed' WHERE id = ?`).run(r.id);
      if (r.status === 'paid') this.db.prepare(`UPDATE carts SET status = 'due' WHERE id = ?`).run(r.cart_id);
    })();
  }

  /**
   * A card tender paid offline whose sale was cancelled at sign-in because its screen never
   * said it was approved (issue 20, point 3): it collected nothing, so the cart follows. Still
   * pending (the power went before the cart heard the answer): declined. Approved under its
   * stand-in id: reversed, and a paid cart becomes `due`. A cancelling cart is left to its cancel.
   */
  offlineTenderCancelled(tenderId: string): void {
    this.db.transaction(() => {
      const r = this.db.prepare(`SELECT t.status AS tender, c.id AS cart_id, c.status FROM cart_tenders t JOIN carts c ON c.id = t.cart_id WHERE t.id = ?`).get(tenderId) as
        | { tender: string; cart_id: string; status: SaleStatus }
        | undefined;
      if (!r || (r.status !== 'open' && r.status !== 'paid')) return;
      if (r.tender === 'pending') this.db.prepare(`UPDATE cart_tenders SET status = 'declined', approved_cents = 0 WHERE id = ?`).run(tenderId);
      else if (r.tender === 'approved') {
        this.db.prepare(`UPDATE cart_tenders SET status = 'reversed' WHERE id = ?`).run(tenderId);
        if (r.status === 'paid') this.db.prepare(`UPDATE carts SET status = 'due' WHERE id = ?`).run(r.cart_id);
      }
    })();
  }

  private cartRow(cartId: string): CartRow {
    return this.db.prepare('SELECT * FROM carts WHERE id = ?').get(cartId) as CartRow;
  }

  private lineRows(cartId: string): LineRow[] {
    return this.db.prepare('SELECT * FROM cart_lines WHERE cart_id = ? ORDER BY seq').all(cartId) as LineRow[];
  }

  tenders(cartId: string): Tender[] {
    const rows = this.db.prepare('SELECT * FROM cart_tenders WHERE cart_id = ? ORDER BY seq').all(cartId) as TenderRow[];
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      status: r.status,
      requestedCents: r.requested_cents,
      approvedCents: r.approved_cents,
      tenderedCents: r.tendered_cents,
      changeCents: r.change_cents,
      transactionId: r.transaction_id,
      refundedCents: r.refunded_cents,
      taxCents: r.tax_cents,
      tipCents: r.tip_cents,
    }));
  }

  /** Whether lines and discounts may still change (open, and no tender taken or in progress). */
  editable(cartId: string): boolean {
    const c = this.cartRow(cartId);
    return c.status === 'open' && !this.tenders(cartId).some((t) => t.status === 'approved' || t.status === 'pending');
  }

  /**
   * Adds an item as `line` says (its name, price and choice resolved by line-choice.ts). The
   * same item with the same choice at the same price adds to its line (when that line has no
   * discount of its own); a different choice is a line of its own. Without `line`: the item
   * plainly, at its own price (an item with neither variants nor modifier groups).
   */
  addItem(cartId: string, item: CatalogueItem, quantity: number, line: ResolvedLine = { name: item.name, unitCents: item.priceCents, productCode: item.productCode || item.sku, choice: null }): void {
    const key = choiceKey(line.choice);
    const same = this.db
      .prepare('SELECT id, quantity FROM cart_lines WHERE cart_id = ? AND item_id = ? AND discount IS NULL AND unit_cents = ? AND choice IS ?')
      .get(cartId, item.id, line.unitCents, key) as { id: string; quantity: number } | undefined;
    if (same) {
      this.db.prepare('UPDATE cart_lines SET quantity = ? WHERE id = ?').run(Math.min(9_999, same.quantity + quantity), same.id);
      return;
    }
    this.insertLine(cartId, {
      itemId: item.id,
      name: line.name,
      unitCents: line.unitCents,
      quantity,
      taxCategory: item.taxCategory,
      productCode: line.productCode,
      unitCode: item.unitCode,
      commodityCode: item.commodityCode,
      choice: line.choice,
    });
  }

  addOpen(cartId: string, name: string, amountCents: number, taxCategory: string): void {
    this.insertLine(cartId, { itemId: null, name, unitCents: amountCents, quantity: 1, taxCategory, productCode: '', unitCode: 'EA', commodityCode: '', choice: null });
  }

  private insertLine(cartId: string, l: Omit<CartLineView, 'id' | 'discount' | 'refunded'>): void {
    const seq = (this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM cart_lines WHERE cart_id = ?').get(cartId) as { n: number }).n;
    this.db
      .prepare(
        `INSERT INTO cart_lines (id, cart_id, seq, item_id, name, unit_cents, quantity, tax_category, product_code, unit_code, commodity_code, choice)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(randomUUID(), cartId, seq, l.itemId, l.name, l.unitCents, l.quantity, l.taxCategory, l.productCode, l.unitCode, l.commodityCode, choiceKey(l.choice));
  }

  hasLine(cartId: string, lineId: string): boolean {
    return this.db.prepare('SELECT 1 FROM cart_lines WHERE cart_id = ? AND id = ?').get(cartId, lineId) !== undefined;
  }

  setQuantity(lineId: string, quantity: number): void {
    this.db.prepare('UPDATE cart_lines SET quantity = ? WHERE id = ?').run(quantity, lineId);
  }

  removeLine(lineId: string): void {
    this.db.prepare('DELETE FROM cart_lines WHERE id = ?').run(lineId);
  }

  setLineDiscount(lineId: string, d: Discount | null): void {
    this.db.prepare('UPDATE cart_lines SET discount = ? WHERE id = ?').run(d ? JSON.stringify(d) : null, lineId);
  }

  setCartDiscount(cartId: string, d: Discount | null): void {
    this.db.prepare('UPDATE carts SET cart_discount = ? WHERE id = ?').run(d ? JSON.stringify(d) : null, cartId);
  }

  /** Who approved the cart's discounts above the limit, and the largest share (basis points) that approval covers. */
  approval(cartId: string): { by: string; basisPoints: number } | null {
    const c = this.cartRow(cartId);
    return c.discount_approved_by !== null && c.discount_approved_bp !== null ? { by: c.discount_approved_by, basisPoints: c.discount_approved_bp } : null;
  }

  setApproval(cartId: string, a: { by: string; basisPoints: number } | null): void {
    this.db.prepare('UPDATE carts SET discount_approved_by = ?, discount_approved_bp = ? WHERE id = ?').run(a?.by ?? null, a?.basisPoints ?? null, cartId);
  }

  clear(cartId: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM cart_tenders WHERE cart_id = ?').run(cartId);
      this.db.prepare('DELETE FROM cart_lines WHERE cart_id = ?').run(cartId);
      this.db
        .prepare('UPDATE carts SET cart_discount = NULL, discount_approved_by = NULL, discount_approved_bp = NULL, total_cents = 0, stock_warning = NULL, stock_warned = NULL WHERE id = ?')
        .run(cartId);
    })();
  }

  /** The tender state to run a step of the machine on. */
  tenderState(cartId: string): TenderState {
    const c = this.cartRow(cartId);
    const { totals } = this.view(cartId);
    return { status: c.status, totalCents: totals.totalCents, taxCents: totals.taxCents, tenders: this.tenders(cartId) };
  }

  /** Writes a step's result: the tenders (insert or update) and the sale's status, in one transaction. */
  saveTenderState(cartId: string, s: TenderState): void {
    const upsert = this.db.prepare(
      `INSERT INTO cart_tenders (id, cart_id, seq, kind, status, requested_cents, approved_cents, tendered_cents, change_cents, transaction_id, refunded_cents, tax_cents, tip_cents, created_ts)
       VALUES (@id, @cartId, @seq, @kind, @status, @requestedCents, @approvedCents, @tenderedCents, @changeCents, @transactionId, @refundedCents, @taxCents, @tipCents, @ts)
       ON CONFLICT(id) DO UPDATE SET status = excluded.status, approved_cents = excluded.approved_cents, transaction_id = excluded.transaction_id, refunded_cents = excluded.refunded_cents, tip_cents = excluded.tip_cents`,
    );
    this.db.transaction(() => {
      const was = this.cartRow(cartId).status;
      s.tenders.forEach((t, i) => upsert.run({ ...t, cartId, seq: i + 1, ts: this.now() }));
      // A due cart was closed when first paid: collecting the rest keeps that day (the drawer's own moves carry their times).
      const closed = s.status === 'paid' || s.status === 'cancelled' || s.status === 'due';
      // Paid again: no one is collecting it any more.
      this.db
        .prepare(`UPDATE carts SET status = ?, total_cents = ?, closed_ts = CASE WHEN ? THEN COALESCE(closed_ts, ?) ELSE NULL END, collector_id = CASE WHEN ? = 'due' THEN collector_id ELSE NULL END WHERE id = ?`)
        .run(s.status, s.totalCents, closed ? 1 : 0, this.now(), s.status, cartId);
      // The one place a cart becomes paid or cancelled: counted stock follows it here (issue 23).
      if (was !== s.status) this.stock.statusChanged(cartId, s.status);
    })();
  }

  markLinesRefunded(cartId: string, lineIds: readonly string[], tenderRefunds: ReadonlyMap<string, number>): void {
    this.db.transaction(() => {
      for (const id of lineIds) this.db.prepare('UPDATE cart_lines SET refunded = 1 WHERE id = ? AND cart_id = ?').run(id, cartId);
      for (const [tenderId, cents] of tenderRefunds) this.db.prepare('UPDATE cart_tenders SET refunded_cents = refunded_cents + ? WHERE id = ?').run(cents, tenderId);
      this.stock.returned(cartId, lineIds);
    })();
  }

  /** The name of the counter user whose cart it is (null when that user was removed). */
  cashierOf(cartId: string): string | null {
    const r = this.db.prepare('SELECT u.name FROM carts c JOIN pos_users u ON u.id = c.user_id WHERE c.id = ?').get(cartId) as { name: string } | undefined;
    return r?.name ?? null;
  }

  /**
   * Paid carts, and due ones (paid once, a card of it voided since: issue 20, point 4), newest
   * first: the list a cash-only sale is found in (it has no gateway transaction), and where a due
   * cart is collected.
   */
  paidCarts(page: number, pageSize: number): { rows: CartSaleRow[]; total: number } {
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM carts WHERE status IN ('paid', 'due')`).get() as { n: number }).n;
    const rows = this.db
      .prepare(
        `SELECT c.id, c.status, c.closed_ts, c.total_cents, u.name AS cashier, k.name AS collector,
                (SELECT COALESCE(SUM(approved_cents), 0) FROM cart_tenders WHERE cart_id = c.id AND status = 'approved') AS collected,
                (SELECT group_concat(kind, ',') FROM (SELECT DISTINCT kind FROM cart_tenders WHERE cart_id = c.id AND status IN ('approved', 'reversed') ORDER BY seq)) AS kinds,
                (SELECT COUNT(*) FROM cart_lines WHERE cart_id = c.id) AS line_count,
                (SELECT COUNT(*) FROM cart_lines WHERE cart_id = c.id AND refunded = 1) AS returned
           FROM carts c LEFT JOIN pos_users u ON u.id = c.user_id LEFT JOIN pos_users k ON k.id = c.collector_id
          WHERE c.status IN ('paid', 'due')
          ORDER BY c.closed_ts DESC, c.id
          LIMIT ? OFFSET ?`,
      )
      .all(pageSize, (page - 1) * pageSize) as Array<{
      id: string;
      status: 'paid' | 'due';
      closed_ts: number;
      total_cents: number;
      cashier: string | null;
      collector: string | null;
      collected: number;
      kinds: string | null;
      line_count: number;
      returned: number;
    }>;
    return {
      total,
      rows: rows.map((r) => ({
        id: r.id,
        status: r.status,
        dueCents: r.status === 'due' ? Math.max(0, r.total_cents - r.collected) : 0,
        collector: r.status === 'due' ? r.collector : null,
        paidTs: r.closed_ts,
        cashier: r.cashier,
        totalCents: r.total_cents,
        // A sale comped whole (issue 21) closed at $0.00 with no payment.
        paidBy: [...new Set((r.kinds ?? '').split(',').filter(Boolean).map(tenderLabel))].join(' + ') || (r.total_cents === 0 ? DISCOUNT_COPY.compLabel : ''),
        lineCount: r.line_count,
        returnedLines: r.returned,
      })),
    };
  }

  setLevel3Note(tenderId: string, sent: boolean, note: string): void {
    this.db.prepare('UPDATE cart_tenders SET level3_sent = ?, level3_note = ? WHERE id = ?').run(sent ? 1 : 0, note, tenderId);
  }

  view(cartId: string): CartView {
    const c = this.cartRow(cartId);
    const level3 = (
      this.db.prepare('SELECT transaction_id, level3_sent, level3_note FROM cart_tenders WHERE cart_id = ? AND level3_note IS NOT NULL ORDER BY seq').all(cartId) as Array<{
        transaction_id: string;
        level3_sent: number;
        level3_note: string;
      }>
    ).map((r) => ({ transactionId: r.transaction_id, sent: r.level3_sent === 1, note: r.level3_note }));
    const lines: CartLineView[] = this.lineRows(cartId).map((r) => ({
      id: r.id,
      itemId: r.item_id,
      name: r.name,
      unitCents: r.unit_cents,
      quantity: r.quantity,
      taxCategory: r.tax_category,
      productCode: r.product_code,
      unitCode: r.unit_code,
      commodityCode: r.commodity_code,
      discount: parseDiscount(r.discount),
      refunded: r.refunded === 1,
      choice: parseChoice(r.choice),
    }));
    const cartDiscount = parseDiscount(c.cart_discount);
    const totals = computeCart(lines, cartDiscount, this.taxRate);
    const tenders = this.tenders(cartId);
    const state: TenderState = { status: c.status, totalCents: totals.totalCents, taxCents: totals.taxCents, tenders };
    return {
      id: c.id,
      status: c.status,
      lines,
      cartDiscount,
      totals,
      tenders,
      // A due cart owes what its voided card had paid (issue 20).
      balanceCents: c.status === 'open' || c.status === 'due' ? balanceCents(state) : 0,
      changeCents: tenders.filter((t) => t.kind === 'cash' && t.status === 'approved').reduce((a, t) => a + t.changeCents, 0),
      discountApprovedBy: c.discount_approved_by,
      level3,
      createdTs: c.created_ts,
      paidTs: c.closed_ts,
      stockWarning: c.stock_warning,
    };
  }
}

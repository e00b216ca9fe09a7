/**
 * "Nothing lost, nothing doubled" (issue 24, point 6), checked one way for every fault test: what a
 * register rang up, read from its own SQLite, against what the store server holds, read from
 * PostgreSQL directly, by id and by sum to the cent.
 *
 * - A `mark` taken before the trade a test watches: the register's facts after it (audit rows, cash
 *   movements, closed carts, its own stock movements) must each be at the store once.
 * - Carts: each closed cart is one row of the store's `sales` with the register's last snapshot
 *   (status, total, every tender's approved and refunded cents); cash movements by key and cents;
 *   audit rows by the register's seq, kind and amount; stock movements by id and delta.
 * - Doubling: no (register, fact kind, key) is in the event log twice, carts aside (a refund
 *   sends its cart again, the later snapshot replacing the earlier).
 * - The stock ledger is every register's: each holds every movement the store has, and no other.
 *
 * Each check answers a list of differences in words (empty: the same), so a failure says what.
 */
import type pg from 'pg';
import type { RigRegister } from './store-rig';

export interface LedgerMark {
  auditSeq: number;
  cashSeq: number;
  stockSeq: number;
  /** Carts closed at or after this (ms, the register's clock) are the trade's. */
  cartsFromMs: number;
  /** Carts already closed before the mark (a refund may change one later: it is then the trade's too). */
  cartsBefore: Set<string>;
}

interface CartRow {
  id: string;
  status: string;
  total_cents: number;
}
interface TenderRow {
  id: string;
  cart_id: string;
  kind: string;
  status: string;
  approved_cents: number;
  refunded_cents: number;
}

/** What a register's SQLite holds now, from its mark on. */
export interface RegisterTrade {
  carts: Map<string, { status: string; totalCents: number; tenders: Map<string, { approved: number; refunded: number; status: string }> }>;
  cash: Map<string, number>;
  audit: Map<string, { kind: string; amount: number | null }>;
  /** Movements this register made (its own), after the mark. */
  ownStock: Map<string, number>;
  /** Every movement it holds (its own and pulled), whole ledger. */
  allStock: Map<string, number>;
}

export function markLedger(reg: RigRegister): LedgerMark {
  const db = reg.openDb();
  try {
    const one = (sql: string) => Number((db.prepare(sql).get() as { n: number | null }).n ?? 0);
    return {
      auditSeq: one('SELECT max(seq) AS n FROM audit_log'),
      cashSeq: one('SELECT max(seq) AS n FROM cash_movements'),
      stockSeq: one('SELECT max(seq) AS n FROM stock_movements'),
      cartsFromMs: Date.now(),
      cartsBefore: new Set((db.prepare("SELECT id FROM carts WHERE status IN ('paid', 'due', 'cancelled')").all() as Array<{ id: string }>).map((r) => r.id)),
    };
  } finally {
    db.close();
  }
}

/**
 * The register's trade since its mark. Its own stock movements are told from pulled ones by the
 * store's record of who sent each (a register's SQLite does not say): `pulledIds` are the ids the
 * store has from other registers.
 */
export function readTrade(reg: RigRegister, mark: LedgerMark, pulledIds: Set<string>): RegisterTrade {
  const db = reg.openDb();
  try {
    const carts = db.prepare("SELECT id, status, total_cents FROM carts WHERE status IN ('paid', 'due', 'cancelled') AND closed_ts >= ?").all(mark.cartsFromMs) as CartRow[];
    const tenders = db.prepare("SELECT t.id, t.cart_id, t.kind, t.status, t.approved_cents, t.refunded_cents FROM cart_tenders t JOIN carts c ON c.id = t.cart_id WHERE c.status IN ('paid', 'due', 'cancelled') AND c.closed_ts >= ?").all(mark.cartsFromMs) as TenderRow[];
    const trade: RegisterTrade = { carts: new Map(), cash: new Map(), audit: new Map(), ownStock: new Map(), allStock: new Map() };
    for (const c of carts) {
      if (mark.cartsBefore.has(c.id)) continue;
      trade.carts.set(c.id, { status: c.status, totalCents: c.total_cents, tenders: new Map() });
    }
    for (const t of tenders) trade.carts.get(t.cart_id)?.tenders.set(t.id, { approved: t.approved_cents, refunded: t.refunded_cents, status: t.status });
    for (const r of db.prepare('SELECT seq, cents FROM cash_movements WHERE seq > ?').all(mark.cashSeq) as Array<{ seq: number; cents: number }>) trade.cash.set(String(r.seq), r.cents);
    for (const r of db.prepare('SELECT seq, kind, amount_cents FROM audit_log WHERE seq > ?').all(mark.auditSeq) as Array<{ seq: number; kind: string; amount_cents: number | null }>) {
      trade.audit.set(String(r.seq), { kind: r.kind, amount: r.amount_cents });
    }
    for (const r of db.prepare('SELECT seq, id, delta FROM stock_movements').all() as Array<{ seq: number; id: string; delta: number }>) {
      trade.allStock.set(r.id, r.delta);
      if (r.seq > mark.stockSeq && !pulledIds.has(r.id)) trade.ownStock.set(r.id, r.delta);
    }
    return trade;
  } finally {
    db.close();
  }
}

const sum = (xs: Iterable<number>) => [...xs].reduce((a, b) => a + b, 0);

/** Ids in one and not the other, in words (at most a few of each, and how many in all). */
function setDiff(what: string, local: Iterable<string>, store: Iterable<string>): string[] {
  const l = new Set(local);
  const s = new Set(store);
  const lost = [...l].filter((x) => !s.has(x));
  const extra = [...s].filter((x) => !l.has(x));
  const out: string[] = [];
  if (lost.length) out.push(`${what}: ${lost.length} on the register and not at the store (${lost.slice(0, 5).join(', ')})`);
  if (extra.length) out.push(`${what}: ${extra.length} at the store and not on the register (${extra.slice(0, 5).join(', ')})`);
  return out;
}

/**
 * Compares one register's trade since its mark with the store's PostgreSQL: answers the
 * differences (empty when the store holds exactly what the register rang up) and the trade read.
 */
export async function compareWithStore(db: pg.Pool, reg: RigRegister, mark: LedgerMark): Promise<{ diffs: string[]; trade: RegisterTrade }> {
  const rid = reg.registerId;
  const pulled = new Set((await db.query<{ id: string }>('SELECT id FROM stock_movements WHERE register_id <> $1', [rid])).rows.map((r) => r.id));
  const trade = readTrade(reg, mark, pulled);
  const diffs: string[] = [];

  // Doubling in the event log: a fact's key once per register (carts may be sent again after a refund).
  const doubled = await db.query<{ kind: string; key: string; n: string }>(
    "SELECT kind, key #>> '{}' AS key, count(*) AS n FROM store_events WHERE type = 'fact' AND register_id = $1 AND kind <> 'cart' GROUP BY kind, key HAVING count(*) > 1",
    [rid],
  );
  for (const d of doubled.rows) diffs.push(`${reg.name}: the ${d.kind} fact ${d.key} is in the store's events ${d.n} times`);

  // Carts: status, total and each tender's approved and refunded cents, as the register has them.
  const sales = await db.query<{ cart_id: string; status: string; body: { total_cents: number; tenders: Array<{ id: string; approved_cents: number; refunded_cents?: number; status: string }> } }>(
    'SELECT cart_id, status, body FROM sales WHERE register_id = $1',
    [rid],
  );
  const storeCarts = new Map(sales.rows.map((r) => [r.cart_id, r]));
  diffs.push(...setDiff(`${reg.name} carts`, trade.carts.keys(), [...storeCarts.keys()].filter((id) => !mark.cartsBefore.has(id) || trade.carts.has(id))));
  for (const [id, c] of trade.carts) {
    const s = storeCarts.get(id);
    if (!s) continue;
    if (s.status !== c.status) diffs.push(`${reg.name} cart ${id}: ${c.status} on the register, ${s.status} at the store`);
    if (s.body.total_cents !== c.totalCents) diffs.push(`${reg.name} cart ${id}: total ${c.totalCents} on the register, ${s.body.total_cents} at the store`);
    for (const [tid, t] of c.tenders) {
      const st = s.body.tenders.find((x) => x.id === tid);
      if (!st) diffs.push(`${reg.name} cart ${id}: tender ${tid} not at the store`);
      else if (st.approved_cents !== t.approved || (st.refunded_cents ?? 0) !== t.refunded || st.status !== t.status) {
        diffs.push(`${reg.name} cart ${id} tender ${tid}: ${t.status} ${t.approved}/${t.refunded} on the register, ${st.status} ${st.approved_cents}/${st.refunded_cents ?? 0} at the store`);
      }
    }
  }

  // Cash movements: by key and by sum.
  const cash = await db.query<{ key: string; cents: string }>('SELECT key, cents FROM cash_movements WHERE register_id = $1 AND key::bigint > $2', [rid, mark.cashSeq]);
  diffs.push(...setDiff(`${reg.name} cash movements`, trade.cash.keys(), cash.rows.map((r) => r.key)));
  const storeCash = sum(cash.rows.map((r) => Number(r.cents)));
  if (storeCash !== sum(trade.cash.values())) diffs.push(`${reg.name} cash: ${sum(trade.cash.values())} cents on the register, ${storeCash} at the store`);

  // Audit rows: by the register's seq, kind and amount.
  const audit = await db.query<{ register_seq: string; kind: string; amount_cents: string | null }>(
    'SELECT register_seq, kind, amount_cents FROM audit_log WHERE register_id = $1 AND register_seq > $2',
    [rid, mark.auditSeq],
  );
  diffs.push(...setDiff(`${reg.name} audit rows`, trade.audit.keys(), audit.rows.map((r) => String(r.register_seq))));
  for (const r of audit.rows) {
    const l = trade.audit.get(String(r.register_seq));
    if (l && (l.kind !== r.kind || l.amount !== (r.amount_cents === null ? null : Number(r.amount_cents)))) {
      diffs.push(`${reg.name} audit row ${r.register_seq}: ${l.kind} ${l.amount} on the register, ${r.kind} ${r.amount_cents} at the store`);
    }
  }

  // Its own stock movements since the mark: by id and delta.
  const stock = await db.query<{ id: string; delta: number }>('SELECT id, delta FROM stock_movements WHERE register_id = $1', [rid]);
  const storeOwn = new Map(stock.rows.map((r) => [r.id, r.delta]));
  const ownAfterMark = [...storeOwn.keys()].filter((id) => trade.ownStock.has(id) || !trade.allStock.has(id));
  diffs.push(...setDiff(`${reg.name} stock movements`, trade.ownStock.keys(), ownAfterMark));
  for (const [id, d] of trade.ownStock) if (storeOwn.has(id) && storeOwn.get(id) !== d) diffs.push(`${reg.name} stock movement ${id}: ${d} on the register, ${storeOwn.get(id)} at the store`);
  return { diffs, trade };
}

/** Every register holds every stock movement the store has (and no other), each with the store's delta. */
export async function compareStockLedgers(db: pg.Pool, regs: RigRegister[]): Promise<string[]> {
  const store = new Map((await db.query<{ id: string; delta: number }>('SELECT id, delta FROM stock_movements')).rows.map((r) => [r.id, r.delta]));
  const diffs: string[] = [];
  for (const reg of regs) {
    const local = readTrade(reg, { auditSeq: 0, cashSeq: 0, stockSeq: 0, cartsFromMs: Date.now(), cartsBefore: new Set() }, new Set()).allStock;
    diffs.push(...setDiff(`${reg.name}'s stock ledger`, local.keys(), store.keys()));
    for (const [id, d] of local) if (store.has(id) && store.get(id) !== d) diffs.push(`${reg.name} stock movement ${id}: ${d} here, ${store.get(id)} at the store`);
  }
  return diffs;
}

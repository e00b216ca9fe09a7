/**
 * The projections the server keeps beside the event log, written in the push's own transaction
 * (so they never disagree with it): the latest row per shared key, the store's audit chain, the
 * sales (latest snapshot per cart), the cash and stock ledgers and the registers' Z reports.
 * The figures (store-figures.ts) read these, never the log.
 *
 * Edits made apart: a row event carries `seenSeq`, the last store seq its register had applied
 * when the edit was made. When the key's current row has a later seq and came from another
 * register, the two edits were made without one seeing the other. The later by the server's
 * clock (this one: it arrived later) wins, as every later event does, and a `sync-conflict` row
 * goes to the store's audit log naming both registers and both values. Secrets in a row (a PIN's
 * hash) are left out of those values.
 */
import type { DayReport } from '../../shared/ipc/reports';
import { FACT_BODY_SCHEMAS, type CartBody, type ZReportBody } from '../../shared/store/store-fact-bodies';
import type { StoreEvent } from '../../shared/store/store-wire';
import { appendAudit, type NewAuditRow } from './store-audit';
import type { StoreClient } from './store-database';

export interface StoredEvent {
  seq: number;
  id: string;
  register_id: string | null;
  type: StoreEvent['type'];
  kind: string;
  key: unknown;
  op: 'upsert' | 'delete' | null;
  body: Record<string, unknown> | null;
  seenSeq?: number;
  server_ts: number;
}

export async function project(client: StoreClient, registerId: string, events: readonly StoredEvent[], serverTs: number): Promise<void> {
  const audit: NewAuditRow[] = [];
  const rows = events.filter((e) => e.type === 'row');
  if (rows.length > 0) audit.push(...(await projectRows(client, registerId, rows, serverTs)));
  const facts = (kind: string) => events.filter((e) => e.type === 'fact' && e.kind === kind);
  await projectSales(client, registerId, facts('cart'));
  await projectCash(client, registerId, facts('cash_movements'));
  await projectStock(client, registerId, facts('stock_movements'));
  await projectZ(client, registerId, facts('z_reports'));
  await projectRefunds(client, registerId, facts('refunds'));
  audit.push(...(await auditFacts(client, registerId, facts('audit_log'))));
  // One chain in the order the events were stored: the edits-made-apart rows sit where their edit did.
  audit.sort((a, b) => (a.event_seq ?? 0) - (b.event_seq ?? 0));
  await appendAudit(client, audit, serverTs);
}

interface SharedRow {
  tbl: string;
  key: unknown;
  row: Record<string, unknown> | null;
  seq: number;
  register_id: string | null;
}

const SECRET_COLUMN = /hash|secret|password|pepper|token/i;

function shown(row: Record<string, unknown> | null): string {
  if (row === null) return 'deleted';
  return JSON.stringify(Object.fromEntries(Object.entries(row).filter(([k]) => !SECRET_COLUMN.test(k))));
}

async function registerNames(client: StoreClient, ids: string[]): Promise<Map<string, string>> {
  const { rows } = await client.query<{ id: string; name: string }>('SELECT id, name FROM registers WHERE id = ANY($1::text[])', [ids]);
  return new Map(rows.map((r) => [r.id, r.name]));
}

async function projectRows(client: StoreClient, registerId: string, events: readonly StoredEvent[], serverTs: number): Promise<NewAuditRow[]> {
  const stateKey = (tbl: string, key: unknown) => `${tbl}\u0000${JSON.stringify(key)}`;
  const { rows: current } = await client.query<SharedRow>(
    `SELECT s.tbl, s.key, s.row, s.seq, s.register_id FROM shared_rows s
       JOIN unnest($1::text[], $2::jsonb[]) AS u (tbl, key) ON s.tbl = u.tbl AND s.key = u.key`,
    [events.map((e) => e.kind), events.map((e) => JSON.stringify(e.key))],
  );
  const state = new Map(current.map((r) => [stateKey(r.tbl, r.key), r]));
  const touched = new Map<string, SharedRow>();
  const apart: Array<{ e: StoredEvent; earlier: SharedRow }> = [];
  for (const e of events) {
    const k = stateKey(e.kind, e.key);
    const earlier = state.get(k);
    if (earlier && earlier.register_id !== registerId && earlier.seq > (e.seenSeq ?? 0)) apart.push({ e, earlier });
    const now: SharedRow = { tbl: e.kind, key: e.key, row: e.body, seq: e.seq, register_id: registerId };
    state.set(k, now);
    touched.set(k, now);
  }
  const rows = [...touched.values()];
  await client.query(
    `INSERT INTO shared_rows (tbl, key, row, seq, register_id, server_ts)
     SELECT u.tbl, u.key, u.row, u.seq, $5, $6 FROM unnest($1::text[], $2::jsonb[], $3::jsonb[], $4::bigint[]) AS u (tbl, key, row, seq)
     ON CONFLICT (tbl, key) DO UPDATE SET row = excluded.row, seq = excluded.seq, register_id = excluded.register_id, server_ts = excluded.server_ts`,
    [rows.map((r) => r.tbl), rows.map((r) => JSON.stringify(r.key)), rows.map((r) => (r.row === null ? null : JSON.stringify(r.row))), rows.map((r) => r.seq), registerId, serverTs],
  );
  if (apart.length === 0) return [];
  const names = await registerNames(client, [registerId, ...apart.map((a) => a.earlier.register_id!)]);
  const name = (id: string | null) => `“${(id && names.get(id)) ?? id ?? 'unknown'}”`;
  return apart.map(({ e, earlier }) => ({
    ts: serverTs,
    register_id: null,
    register_seq: null,
    kind: 'sync-conflict',
    user_id: null,
    user_name: null,
    amount_cents: null,
    transaction_id: null,
    detail:
      `${e.kind} ${JSON.stringify(e.key)} was changed on ${name(earlier.register_id)} and on ${name(registerId)} while apart; ` +
      `the later change by the store server's clock (${name(registerId)}'s) was kept. ` +
      `${name(earlier.register_id)}'s value: ${shown(earlier.row)}. Kept: ${shown(e.body)}.`,
    event_seq: e.seq,
  }));
}

/**
 * What a cart snapshot adds to the figures: only approved tenders of a paid or due cart count.
 * Card: what the card took at the gateway (the cart's share and the tip), refunds NOT taken off:
 * a card refund is a fact of its own (`refunds`), counted on the register that made it when it was
 * made (store-figures.ts) — a refund of this cart made on another register changes no cart. Cash:
 * net of what was given back (the drawer's ledger is what the figures read for cash anyway).
 */
export function cartMoney(cart: CartBody): { card: number; cash: number; tax: number; tip: number } {
  const out = { card: 0, cash: 0, tax: 0, tip: 0 };
  if (cart.status !== 'paid' && cart.status !== 'due') return out;
  for (const t of cart.tenders) {
    if (t.status !== 'approved') continue;
    out.tax += t.tax_cents;
    if (t.kind === 'cash') out.cash += t.approved_cents - t.refunded_cents;
    else {
      // What the card took at the gateway: the cart's share and the tip on top.
      out.card += t.approved_cents + t.tip_cents;
      out.tip += t.tip_cents;
    }
  }
  return out;
}

/** Keeps the last event per key (a batch may carry the same cart twice: DO UPDATE cannot touch a row twice in one statement). */
function lastPerKey(events: readonly StoredEvent[]): StoredEvent[] {
  return [...new Map(events.map((e) => [String(e.key), e])).values()];
}

async function projectSales(client: StoreClient, registerId: string, events: readonly StoredEvent[]): Promise<void> {
  if (events.length === 0) return;
  const carts = lastPerKey(events).map((e) => ({ e, cart: FACT_BODY_SCHEMAS.cart.parse(e.body) }));
  const money = carts.map((c) => cartMoney(c.cart));
  await client.query(
    `INSERT INTO sales (register_id, cart_id, status, closed_ts, card_cents, cash_cents, tax_cents, tip_cents, body, seq)
     SELECT $1, u.cart_id, u.status, u.closed_ts, u.card, u.cash, u.tax, u.tip, u.body, u.seq
       FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::jsonb[], $10::bigint[]) AS u (cart_id, status, closed_ts, card, cash, tax, tip, body, seq)
     ON CONFLICT (register_id, cart_id) DO UPDATE SET status = excluded.status, closed_ts = excluded.closed_ts, card_cents = excluded.card_cents, cash_cents = excluded.cash_cents,
       tax_cents = excluded.tax_cents, tip_cents = excluded.tip_cents, body = excluded.body, seq = excluded.seq
     WHERE sales.seq < excluded.seq`,
    [
      registerId,
      carts.map((c) => String(c.e.key)),
      carts.map((c) => c.cart.status),
      carts.map((c) => c.cart.closed_ts),
      money.map((m) => m.card),
      money.map((m) => m.cash),
      money.map((m) => m.tax),
      money.map((m) => m.tip),
      carts.map((c) => JSON.stringify(c.e.body)),
      carts.map((c) => c.e.seq),
    ],
  );
}

async function projectCash(client: StoreClient, registerId: string, events: readonly StoredEvent[]): Promise<void> {
  if (events.length === 0) return;
  const moves = events.map((e) => ({ e, m: FACT_BODY_SCHEMAS.cash_movements.parse(e.body) }));
  await client.query(
    `INSERT INTO cash_movements (register_id, key, cart_id, kind, cents, ts, seq)
     SELECT $1, u.key, u.cart_id, u.kind, u.cents, u.ts, u.seq FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[]) AS u (key, cart_id, kind, cents, ts, seq)
     ON CONFLICT (register_id, key) DO NOTHING`,
    [registerId, moves.map((x) => String(x.e.key)), moves.map((x) => x.m.cart_id), moves.map((x) => x.m.kind), moves.map((x) => x.m.cents), moves.map((x) => x.m.ts), moves.map((x) => x.e.seq)],
  );
}

async function projectStock(client: StoreClient, registerId: string, events: readonly StoredEvent[]): Promise<void> {
  if (events.length === 0) return;
  const moves = events.map((e) => ({ e, m: FACT_BODY_SCHEMAS.stock_movements.parse(e.body) }));
  await client.query(
    `INSERT INTO stock_movements (id, register_id, item_id, variant_id, delta, reason, ts, seq)
     SELECT u.id, $1, u.item_id, u.variant_id, u.delta, u.reason, u.ts, u.seq FROM unnest($2::text[], $3::text[], $4::text[], $5::integer[], $6::text[], $7::bigint[], $8::bigint[]) AS u (id, item_id, variant_id, delta, reason, ts, seq)
     ON CONFLICT (id) DO NOTHING`,
    [registerId, moves.map((x) => x.m.id), moves.map((x) => x.m.item_id), moves.map((x) => x.m.variant_id ?? null), moves.map((x) => x.m.delta), moves.map((x) => x.m.reason), moves.map((x) => x.m.ts), moves.map((x) => x.e.seq)],
  );
}

/** Card refunds, once per register and refund (a push repeated, or the same refund under another event id, adds nothing). */
async function projectRefunds(client: StoreClient, registerId: string, events: readonly StoredEvent[]): Promise<void> {
  if (events.length === 0) return;
  const refunds = events.map((e) => FACT_BODY_SCHEMAS.refunds.parse(e.body));
  await client.query(
    `INSERT INTO refunds (register_id, refund_id, original_id, cents, ts, seq)
     SELECT $1, u.refund_id, u.original_id, u.cents, u.created_ts * 1000, u.seq FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[]) AS u (refund_id, original_id, cents, created_ts, seq)
     ON CONFLICT (register_id, refund_id) DO NOTHING`,
    [registerId, refunds.map((r) => r.refund_id), refunds.map((r) => r.original_id), refunds.map((r) => r.cents), refunds.map((r) => r.created_ts), events.map((e) => e.seq)],
  );
}

/** The DayReport inside a Z's body (JSON text as the register stores it, or the object); null when unreadable. */
export function zReportOf(body: ZReportBody): Partial<DayReport> | null {
  if (typeof body.report !== 'string') return body.report as Partial<DayReport>;
  try {
    const parsed = JSON.parse(body.report) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Partial<DayReport>) : null;
  } catch {
    return null;
  }
}

async function projectZ(client: StoreClient, registerId: string, events: readonly StoredEvent[]): Promise<void> {
  if (events.length === 0) return;
  const zs = events.map((e) => {
    const body = FACT_BODY_SCHEMAS.z_reports.parse(e.body);
    const report = zReportOf(body);
    return {
      e,
      body,
      report,
      counted: report?.cashCount?.countedCents ?? null,
      expected: report?.cashCount?.expectedCents ?? report?.cash?.expectedCents ?? null,
    };
  });
  await client.query(
    `INSERT INTO z_reports (register_id, number, from_ts, to_ts, net_cents, counted_cents, expected_cents, store_day, report, seq)
     SELECT $1, u.number, u.from_ts, u.to_ts, u.net, u.counted, u.expected, u.store_day, u.report, u.seq
       FROM unnest($2::integer[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::integer[], $9::jsonb[], $10::bigint[]) AS u (number, from_ts, to_ts, net, counted, expected, store_day, report, seq)
     ON CONFLICT (register_id, number) DO NOTHING`,
    [
      registerId,
      zs.map((z) => z.body.number),
      zs.map((z) => z.body.from_ts),
      zs.map((z) => z.body.to_ts),
      zs.map((z) => z.body.net_cents),
      zs.map((z) => z.counted),
      zs.map((z) => z.expected),
      zs.map((z) => z.body.storeDay ?? null),
      zs.map((z) => (z.report ? JSON.stringify(z.report) : null)),
      zs.map((z) => z.e.seq),
    ],
  );
}

/** A register's audit rows, as rows of the store's chain (a row it pushed before under another event id is not chained twice). */
async function auditFacts(client: StoreClient, registerId: string, events: readonly StoredEvent[]): Promise<NewAuditRow[]> {
  if (events.length === 0) return [];
  const rows = events.map((e) => ({ e, a: FACT_BODY_SCHEMAS.audit_log.parse(e.body) }));
  const known = new Set(
    (await client.query<{ register_seq: number }>('SELECT register_seq FROM audit_log WHERE register_id = $1 AND register_seq = ANY($2::bigint[])', [registerId, rows.map((r) => r.a.seq)])).rows.map(
      (r) => r.register_seq,
    ),
  );
  const out: NewAuditRow[] = [];
  for (const { e, a } of rows) {
    if (known.has(a.seq)) continue;
    known.add(a.seq);
    out.push({
      ts: a.ts,
      register_id: registerId,
      register_seq: a.seq,
      kind: a.kind,
      user_id: a.user_id ?? null,
      user_name: a.user_name ?? null,
      amount_cents: a.amount_cents ?? null,
      transaction_id: a.transaction_id ?? null,
      detail: a.detail,
      event_seq: e.seq,
    });
  }
  return out;
}

/**
 * What each fact's `body` holds (issue 24): the register's own SQLite row, as the capture
 * triggers write it with `json_object(...)` (column names as in pos-database.ts, snake_case;
 * SQLite's 0/1 for booleans). The store server checks a pushed fact against these before it is
 * stored, so a register that sends a body the reports cannot read is told which one at once.
 * Objects are loose: a column added to the register's table later travels without a change here.
 *
 * - `cart` (key: the cart's id): the `carts` row with `lines` (its cart_lines rows) and `tenders`
 *   (its cart_tenders rows). Sent when the cart becomes paid, due or cancelled, and again when a
 *   closed cart's lines or tenders change (a refund): the later snapshot replaces the earlier.
 * - `cash_movements` (key: the row's seq): cents positive in, negative out.
 * - `stock_movements` (key: the movement's id).
 * - `audit_log` (key: the row's seq): the register's audit row, chained again into the store's log.
 * - `z_reports` (key: the Z's number): the `z_reports` row; `report` is the DayReport (its JSON
 *   text, or the object); `storeDay` is the number of the store's day (a `store_day` event) this
 *   Z was made for, absent for a Z the register closed on its own.
 * - `refunds` (key: the refund's transaction id): the `refund_ledger` row — the refund, the sale it
 *   gives back to (`original_id`, a card tender's transaction id on whichever register took it),
 *   its cents and when it was made (`created_ts`, unix seconds as the register records it).
 */
import { z } from 'zod';
import type { FactKind } from './store-wire';

const int = z.number().int();
const cents = int.min(0);
const text = z.string().max(10_000);

export const cartTenderBodySchema = z.looseObject({
  id: z.string().min(1),
  kind: z.enum(['cash', 'card', 'saved-card', 'terminal']),
  status: z.enum(['pending', 'approved', 'declined', 'reversed']),
  approved_cents: cents,
  refunded_cents: cents.default(0),
  tendered_cents: cents.default(0),
  change_cents: cents.default(0),
  tax_cents: cents.default(0),
  tip_cents: cents.default(0),
  transaction_id: z.string().nullable().optional(),
});

export const cartBodySchema = z.looseObject({
  id: z.string().min(1),
  status: z.enum(['open', 'paid', 'due', 'cancelling', 'cancelled']),
  total_cents: int,
  created_ts: int,
  closed_ts: int.nullable(),
  lines: z.array(z.looseObject({ id: z.string() })).max(1_000),
  tenders: z.array(cartTenderBodySchema).max(200),
});

export const cashMovementBodySchema = z.looseObject({
  cart_id: z.string().nullable(),
  kind: z.string().min(1).max(20),
  cents: int,
  ts: int,
});

export const stockMovementBodySchema = z.looseObject({
  id: z.string().min(1),
  item_id: z.string().min(1),
  variant_id: z.string().nullable().optional(),
  delta: int,
  reason: z.string().min(1).max(20),
  ts: int,
});

export const auditRowBodySchema = z.looseObject({
  seq: int.min(1),
  ts: int,
  kind: z.string().min(1).max(60),
  user_id: z.string().nullable().optional(),
  user_name: z.string().nullable().optional(),
  amount_cents: int.nullable().optional(),
  transaction_id: z.string().nullable().optional(),
  detail: text.default(''),
});

export const zReportBodySchema = z.looseObject({
  number: int.min(1),
  from_ts: int,
  to_ts: int,
  net_cents: int,
  closed_by: z.string(),
  report: z.union([z.string(), z.record(z.string(), z.unknown())]),
  storeDay: int.min(1).nullable().optional(),
});

export const refundBodySchema = z.looseObject({
  refund_id: z.string().min(1).max(100),
  original_id: z.string().min(1).max(100),
  cents: int.min(1),
  created_ts: int.min(0),
});

export const FACT_BODY_SCHEMAS = {
  cart: cartBodySchema,
  cash_movements: cashMovementBodySchema,
  stock_movements: stockMovementBodySchema,
  audit_log: auditRowBodySchema,
  z_reports: zReportBodySchema,
  refunds: refundBodySchema,
} as const satisfies Record<FactKind, z.ZodType>;

export type CartBody = z.infer<typeof cartBodySchema>;
export type CashMovementBody = z.infer<typeof cashMovementBodySchema>;
export type StockMovementBody = z.infer<typeof stockMovementBodySchema>;
export type AuditRowBody = z.infer<typeof auditRowBodySchema>;
export type ZReportBody = z.infer<typeof zReportBodySchema>;
export type RefundBody = z.infer<typeof refundBodySchema>;

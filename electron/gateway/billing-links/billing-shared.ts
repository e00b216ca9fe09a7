/**
 * What pay links and quick invoices share: the product transaction rule (cc and/or ach,
 * defaulting to the location's default_cc / default_ach, of the right method and
 * location), contact_api_id translation, the location's calendar date, and the links.
 */
import type { EngineContext } from '../framework/context';
import type { ErrorCollector } from '../framework/errors';
import type { RecordEvent } from '../framework/record-events';
import { findByApiId } from '../framework/records';
import type { HookArgs, Row, WriteInput } from '../framework/resource';
import { BILLING_MSG } from './billing-messages';

/**
 * Where a location's customers open its payment pages: the location's pay_page_url (an engine
 * extension: the public address a proxy or tunnel serves this engine at, set by the merchant),
 * else the engine's own origin (127.0.0.1, which only this computer can open).
 */
export function payPagesOrigin(ctx: EngineContext, locationId: unknown): string {
  const l = ctx.stmt('SELECT pay_page_url FROM locations WHERE id = ?').get(locationId) as { pay_page_url: string | null } | undefined;
  return l?.pay_page_url ? l.pay_page_url.replace(/\/+$/, '') : ctx.origin;
}

/** `https://<payment_host>?paylink_id=<id>`: the engine is its own payment host. */
export const paylinkUrl = (ctx: EngineContext, row: Row): string => `${payPagesOrigin(ctx, row.location_id)}/paylink?paylink_id=${encodeURIComponent(String(row.id))}`;
/** `https://<host>/quickinvoice/?id=<id>`. */
export const invoiceUrl = (ctx: EngineContext, row: Row): string => `${payPagesOrigin(ctx, row.location_id)}/quickinvoice/?id=${encodeURIComponent(String(row.id))}`;

/** yyyy-mm-dd plus `days` (negative goes back). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * Checks and fills the product transactions of a create or update: on create, neither
 * given means the location's defaults; each given id must be a product of the location
 * with the matching payment method; `locked` (payments were made) refuses changes.
 */
export function checkProducts(ctx: EngineContext, errs: ErrorCollector, input: WriteInput, mode: 'create' | 'update', existing?: Row, locked = false): void {
  const v = input.values;
  const locationId = String(mode === 'create' ? v.location_id : existing?.location_id);
  if (mode === 'create' && !v.cc_product_transaction_id && !v.ach_product_transaction_id) {
    const loc = ctx.stmt('SELECT default_cc, default_ach FROM locations WHERE id = ?').get(locationId) as { default_cc: string | null; default_ach: string | null } | undefined;
    if (loc?.default_cc) v.cc_product_transaction_id = loc.default_cc;
    else if (loc?.default_ach) v.ach_product_transaction_id = loc.default_ach;
    else errs.add('cc_product_transaction_id', BILLING_MSG.PRODUCT_REQUIRED);
  }
  for (const [field, method] of [['cc_product_transaction_id', 'cc'], ['ach_product_transaction_id', 'ach']] as const) {
    const id = v[field];
    if (id === undefined || id === null) continue;
    if (locked && existing && id !== existing[field]) {
      errs.add(field, BILLING_MSG.PRODUCT_LOCKED);
      continue;
    }
    const pt = ctx.stmt('SELECT payment_method FROM product_transactions WHERE id = ? AND location_id = ?').get(id, locationId) as { payment_method: string } | undefined;
    if (pt?.payment_method !== method) errs.add(field, BILLING_MSG.PRODUCT_INVALID, { method: method === 'cc' ? 'card' : 'ACH' });
  }
  if (mode === 'update' && existing) {
    const cc = 'cc_product_transaction_id' in v ? v.cc_product_transaction_id : existing.cc_product_transaction_id;
    const ach = 'ach_product_transaction_id' in v ? v.ach_product_transaction_id : existing.ach_product_transaction_id;
    if (!cc && !ach) errs.add('cc_product_transaction_id', BILLING_MSG.PRODUCT_REQUIRED);
  }
}

/** contact_api_id (virtual) → contact_id of the same location; 422 when unknown. */
export function translateContactApiId(args: Pick<HookArgs, 'ctx' | 'auth' | 'errs'>, input: WriteInput, locationId: string): void {
  const apiId = input.raw.contact_api_id;
  if (apiId === undefined || apiId === null || apiId === '') return;
  const c = findByApiId(args.ctx, args.ctx.resource('contact'), String(apiId), locationId, args.auth);
  if (!c) args.errs.add('contact_api_id', '{attribute} is invalid.');
  else input.values.contact_id = c.id;
}

export function contactEmail(ctx: EngineContext, contactId: unknown): string | undefined {
  if (typeof contactId !== 'string') return undefined;
  const c = ctx.stmt('SELECT email FROM contacts WHERE id = ?').get(contactId) as { email: string | null } | undefined;
  return c?.email ?? undefined;
}

export function locationName(ctx: EngineContext, locationId: unknown): string {
  const l = ctx.stmt('SELECT name FROM locations WHERE id = ?').get(locationId) as { name: string } | undefined;
  return l?.name ?? 'the merchant';
}

/** Where a pay link's or an invoice's payments are recorded: which transactions pay which link. */
export interface PaymentLinks {
  table: 'paylink_payments' | 'quick_invoice_transactions';
  column: 'paylink_id' | 'quick_invoice_id';
}
export const PAYLINK_PAYMENTS: PaymentLinks = { table: 'paylink_payments', column: 'paylink_id' };
export const INVOICE_PAYMENTS: PaymentLinks = { table: 'quick_invoice_transactions', column: 'quick_invoice_id' };

/**
 * The money collected on one link or invoice, in cents: its payments of the `counted`
 * statuses (approved money only), less what was refunded of them.
 */
export function collectedCents(ctx: EngineContext, links: PaymentLinks, id: string, counted: readonly number[]): number {
  const r = ctx
    .stmt(`SELECT COALESCE(SUM(t.auth_amount - t.refunded), 0) AS paid FROM ${links.table} p JOIN transactions t ON t.id = p.transaction_id
      WHERE p.${links.column} = ? AND t.status_id IN (${counted.join(',')}) AND t.type_id IN (20, 50)`)
    .get(id) as { paid: number };
  return r.paid;
}

/**
 * The pay links or invoices a transaction event touches: the written transaction itself, or
 * the one it acts on (a refund of a payment). Nothing for other records or deletes, nor for a
 * new transaction that acts on none (a sale): a link to it is written in its own create (a
 * payment page's withinCommit), which recomputes the link itself. Else one or two
 * primary-key lookups.
 */
export function linkedByTransactionEvent(ctx: EngineContext, e: RecordEvent, links: PaymentLinks): string[] {
  if (e.resource !== 'transaction' || e.type === 'DELETE') return [];
  if (e.type === 'CREATE' && e.actsOn === null) return [];
  const rows = (
    typeof e.actsOn === 'string'
      ? ctx.stmt(`SELECT DISTINCT ${links.column} AS id FROM ${links.table} WHERE transaction_id IN (?, ?)`).all(e.recordId, e.actsOn)
      : ctx.stmt(`SELECT DISTINCT ${links.column} AS id FROM ${links.table} WHERE transaction_id IN (?, (SELECT previous_transaction_id FROM transactions WHERE id = ?))`).all(e.recordId, e.recordId)
  ) as { id: string }[];
  return rows.map((r) => r.id);
}

/**
 * Events as a register pushes them (shared/store/store-wire.ts, store-fact-bodies.ts), for the
 * store server's tests: each builder numbers its register's events as its outbox would
 * (`<registerId>:<n>`), and the bodies are the register's SQLite rows in their JSON shape.
 */
import { randomUUID } from 'node:crypto';
import type { PushedEvent } from '../../shared/store/store-wire';

export interface TestRegister {
  registerId: string;
  token: string;
  /** The outbox's next number. */
  next: number;
}

export const asRegister = (a: { registerId: string; token: string }): TestRegister => ({ registerId: a.registerId, token: a.token, next: 1 });

const eventId = (r: TestRegister) => `${r.registerId}:${r.next++}`;

export function stockEvent(r: TestRegister, itemId = 'item-1', delta = -1): PushedEvent {
  const id = randomUUID();
  return { type: 'fact', id: eventId(r), kind: 'stock_movements', key: id, body: { seq: r.next, id, item_id: itemId, variant_id: null, delta, reason: 'sale', note: '', cart_id: null, user_id: 'u1', user_name: 'Ann', ts: Date.now() }, at: Date.now() };
}

export function rowEvent(r: TestRegister, table: 'settings' | 'pos_users' | 'catalogue_items', row: Record<string, unknown>, seenSeq: number, op: 'upsert' | 'delete' = 'upsert'): PushedEvent {
  const key = table === 'settings' ? [row.key as string] : [row.id as string];
  return { type: 'row', id: eventId(r), table, op, key, row: op === 'upsert' ? row : null, seenSeq, at: Date.now() };
}

let auditSeq = 0;
export function auditEvent(r: TestRegister, kind: string, detail: string, amountCents: number | null = null): PushedEvent {
  const seq = ++auditSeq;
  return {
    type: 'fact',
    id: eventId(r),
    kind: 'audit_log',
    key: String(seq),
    body: { seq, ts: Date.now(), kind, user_id: 'u1', user_name: 'Ann', amount_cents: amountCents, transaction_id: null, detail, prev_hash: 'x', hash: 'y' },
    at: Date.now(),
  };
}

export interface TestTender {
  kind: 'cash' | 'card' | 'terminal' | 'saved-card';
  status?: 'approved' | 'declined' | 'reversed' | 'pending';
  approved: number;
  refunded?: number;
  tax?: number;
  tip?: number;
}

/** A closed cart's snapshot: its row, lines and tenders. */
export function cartEvent(r: TestRegister, cartId: string, status: 'paid' | 'due' | 'cancelled', closedTs: number, tenders: TestTender[]): PushedEvent {
  const total = tenders.reduce((s, t) => s + t.approved, 0);
  return {
    type: 'fact',
    id: eventId(r),
    kind: 'cart',
    key: cartId,
    body: {
      id: cartId,
      user_id: 'u1',
      status,
      total_cents: total,
      created_ts: closedTs - 60_000,
      closed_ts: closedTs,
      lines: [{ id: `${cartId}-l1`, cart_id: cartId, seq: 1, name: 'Coffee', unit_cents: total, quantity: 1, refunded: 0 }],
      tenders: tenders.map((t, i) => ({
        id: `${cartId}-t${i}`,
        cart_id: cartId,
        seq: i + 1,
        kind: t.kind,
        status: t.status ?? 'approved',
        requested_cents: t.approved,
        approved_cents: t.approved,
        tendered_cents: t.kind === 'cash' ? t.approved : 0,
        change_cents: 0,
        transaction_id: t.kind === 'cash' ? null : `tx-${cartId}-${i}`,
        refunded_cents: t.refunded ?? 0,
        tax_cents: t.tax ?? 0,
        tip_cents: t.tip ?? 0,
        created_ts: closedTs,
      })),
    },
    at: Date.now(),
  };
}

let cashSeq = 0;
/** `cents`: positive in, negative out (the register's ledger). */
export function cashEvent(r: TestRegister, cartId: string, kind: 'sale' | 'refund' | 'return', cents: number, ts: number): PushedEvent {
  const seq = ++cashSeq;
  return { type: 'fact', id: eventId(r), kind: 'cash_movements', key: String(seq), body: { seq, cart_id: cartId, kind, cents, ts }, at: Date.now() };
}

export function zEvent(r: TestRegister, number: number, toTs: number, countedCents: number | null, expectedCents: number, storeDay?: number): PushedEvent {
  const report = { kind: 'z', number, from: toTs - 3600, to: toTs, cash: { salesCents: expectedCents, refundsCents: 0, expectedCents }, ...(countedCents !== null ? { cashCount: { floatCents: 0, countedCents, expectedCents, overShortCents: countedCents - expectedCents } } : {}) };
  return {
    type: 'fact',
    id: eventId(r),
    kind: 'z_reports',
    key: String(number),
    body: { number, from_ts: toTs - 3600, to_ts: toTs, net_cents: expectedCents, closed_by: 'Ann', report: JSON.stringify(report), ...(storeDay !== undefined ? { storeDay } : {}) },
    at: Date.now(),
  };
}

/** A card refund this register made (its refund_ledger row): `originalId` is the sale's transaction id, whichever register took it; `ts` in ms, kept in whole seconds as the register does. */
export function refundEvent(r: TestRegister, refundId: string, originalId: string, cents: number, ts: number): PushedEvent {
  return { type: 'fact', id: eventId(r), kind: 'refunds', key: refundId, body: { refund_id: refundId, original_id: originalId, cents, created_ts: Math.floor(ts / 1000) }, at: Date.now() };
}

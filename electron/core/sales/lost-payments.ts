/**
 * Never charged twice when a payment's answer is lost (issue 8, point 6), and never
 * forgotten when the app stops meanwhile (issue 20, point 3).
 *
 * A timeout or a broken connection says nothing about the card: the POST may be on its way,
 * in the gateway's processor, or already approved. So every payment the core sends for new
 * money — a keyed card, a saved card or bank account, the terminal, a check — is written to
 * `lost_payments` in ringup.db, with its cashier, BEFORE the request leaves (`sending`). The
 * row goes when the gateway answers (`answered`); what is left behind by a timeout, a kill or
 * a power cut is a payment whose outcome is not known, and it stays unknown until it is:
 *
 * - A lookup by its transaction_api_id that finds the record is the outcome. The record is
 *   checked against the tender it was made for (tender-refs.ts; a mismatch is voided and not
 *   counted), then recorded as the sale of the cashier who sent it (clerk_records) and audited.
 * - Otherwise, while this process still holds the request (never on disk: it may carry card
 *   data) and within RESEND_WINDOW_MS of the first attempt, the same request is sent again
 *   under the same transaction_api_id: the interface makes that non-duplicating, so its
 *   answer is the one real outcome. A re-send that is lost, or refused, proves nothing.
 * - "Not charged" is concluded only once the last request sent is older than the payment's
 *   processing bound (the gateway's processor time-out plus a margin; for the terminal, the
 *   longest a terminal may hold the customer plus that) and the gateway still has no record.
 *
 * The resolution resumes by itself: at start, at every sign-in and unlock, and every few
 * seconds while anything is unknown (`resumeAll`, driven by app-core.ts). What it concluded
 * stays listed (`list`) until someone at the counter has seen it (`seen`): the banner shows
 * the cashier and the amount and says "approved", "declined" or "not charged", so nobody
 * charges the customer again on a guess.
 *
 * Simplifications: after a restart a keyed card or a check cannot be sent again (its card or
 * account data was never stored), so only lookups run and the processing bound decides; a
 * POST held in transit for longer than its bound after the last attempt is not covered (the
 * gateway would take it late). The terminal's answer found this way is checked against its
 * binding (amount, tip when it was fixed, method, reference), not against the store's tip
 * limit the live terminal path applies.
 */
import { randomUUID } from 'node:crypto';
import type { LostPaymentState, LostPaymentView, LostPaymentWay } from '../../../shared/ipc/sales';
import type { Session } from '../../../shared/ipc/contract';
import { formatMoney } from '../../../shared/payments/money';
import type { Result } from '../../../shared/result';
import { GatewayError, type GatewayClient } from '../../client/gateway-client';
import type { V2Transaction, V2TransactionCreate } from '../../client/v2-types';
import type { AuditLog } from '../audit/audit-log';
import type { ClerkRecords } from './clerk-records';
import type { PosDatabase } from '../platform/pos-database';
import type { TenderBinding, TenderRefs } from '../cart/tender-refs';
import { STATUS, toView } from '../transactions/transaction-view';

/** The gateway's processor time-out (GATEWAY-FACTS: 8.10 and above are answered as a time-out after 10 s). */
export const PROCESSOR_TIMEOUT_MS = 10_000;
/** A request sent longer ago than this, with no record, was not charged: the processor bound plus a margin for the way there. */
export const PROCESSING_BOUND_MS = PROCESSOR_TIMEOUT_MS + 5_000;
/** A terminal may hold its request up to its overall_timeout (at most 300 s) before the processor is asked. */
export const TERMINAL_BOUND_MS = 300_000 + PROCESSING_BOUND_MS;
/** How long after the first attempt the core may send a lost payment again by itself (and holds its request). */
export const RESEND_WINDOW_MS = 120_000;
/** How often the core asks about payments still unknown. */
export const LOST_SWEEP_MS = 3_000;

export const LOST_COPY = {
  checking: (cashier: string) => `The payment gateway did not answer. Checking whether the card was charged — do not charge it again. Rung up by ${cashier}.`,
  approved: (cashier: string, ref: string) => `Approved: the gateway has this payment (Ref ${ref}), rung up by ${cashier}. Do not charge it again.`,
  declined: (cashier: string) => `Declined: the gateway has this payment, rung up by ${cashier}, and it was not approved. Nothing was charged.`,
  notCharged: (cashier: string) => `Not charged: the gateway has no record of this payment, rung up by ${cashier}. Charge again when ready.`,
  notCounted: (cashier: string) => `The gateway answered with another payment than the one ${cashier} asked for: it was not counted. Ask a manager to check today's transactions.`,
} as const;

/**
 * What a failed request says about the payment: `unreachable` (the connection was refused: it
 * never left), `refused` (the gateway answered with an error: nothing was made — 4xx, and 503,
 * which the interface answers for a terminal it cannot reach and a load balancer for a gateway
 * it did not reach), or `lost` (a time-out, a broken connection, a 500, 502 or 504 that may
 * come after the processor was asked, anything else: it may have been charged).
 */
export function failureOf(err: unknown): 'unreachable' | 'refused' | 'lost' {
  if (!(err instanceof GatewayError)) return 'lost';
  if (err.status === 0) return err.errors.general?.[0] === 'unreachable' ? 'unreachable' : 'lost';
  return (err.status >= 400 && err.status < 500) || err.status === 503 ? 'refused' : 'lost';
}

export type LostAnswer =
  /** `cashier`: who sent it (null: answered in its time, its clerk record says who). */
  | { kind: 'found'; transaction: V2Transaction; cashier: Session | null }
  | { kind: 'unknown' }
  | { kind: 'not_charged' }
  /** The gateway's answer was not the tender (tender-refs.ts check): refused in words. */
  | { kind: 'refused'; result: Result<never> };

interface Row {
  ref: string;
  way: LostPaymentWay;
  user_id: string;
  user_name: string;
  user_role: string;
  amount_cents: number;
  collects_rest_of: string | null;
  boot: string;
  first_sent_ms: number;
  last_sent_ms: number;
  bound_ms: number;
  state: 'sent' | 'lost' | LostConclusion;
  transaction_id: string | null;
  concluded_ms: number | null;
  seen_by: string | null;
}
type LostConclusion = 'approved' | 'declined' | 'not_charged' | 'not_counted';

export interface LostPaymentsDeps {
  db: PosDatabase;
  /** Looks payments up and sends them again (the same client the sale went with). */
  client: GatewayClient;
  locationId: string | undefined;
  refs: TenderRefs;
  clerks: ClerkRecords;
  audit?: Pick<AuditLog, 'record'>;
  /** Told when the list changed (the banner's event). */
  onChange?: () => void;
  now?: () => number;
  resendWindowMs?: number;
}

export interface Sending {
  way: LostPaymentWay;
  session: Session;
  /** What is asked, tip included when it is fixed. */
  amountCents: number;
  collectsRestOf?: string | null;
}

export class LostPayments {
  /** This run's id: a row sent by another run whose answer never came was cut off by a stop. */
  private readonly boot = randomUUID();
  private readonly now: () => number;
  private readonly resendWindowMs: number;
  /** Requests this process sent and still awaits: the sweep leaves them to their caller. */
  private readonly inFlight = new Set<string>();
  /** The request of a lost payment, for a re-send (may hold card data: memory only, for the re-send window). */
  private readonly requests = new Map<string, V2TransactionCreate>();
  /** One resolution per payment at a time (a second caller shares it: never two re-sends racing). */
  private readonly running = new Map<string, Promise<LostAnswer>>();
  private readonly stmt;

  constructor(private readonly deps: LostPaymentsDeps) {
    this.now = deps.now ?? Date.now;
    this.resendWindowMs = deps.resendWindowMs ?? RESEND_WINDOW_MS;
    const db = deps.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT OR REPLACE INTO lost_payments (ref, way, user_id, user_name, user_role, amount_cents, collects_rest_of, boot, first_sent_ms, last_sent_ms, bound_ms, state)
         VALUES (@ref, @way, @userId, @userName, @userRole, @amountCents, @collectsRestOf, @boot, @sentMs, @sentMs, @boundMs, 'sent')`,
      ),
      resent: db.prepare("UPDATE lost_payments SET last_sent_ms = ?, boot = ? WHERE ref = ? AND state IN ('sent', 'lost')"),
      remove: db.prepare("DELETE FROM lost_payments WHERE ref = ? AND state IN ('sent', 'lost')"),
      lost: db.prepare("UPDATE lost_payments SET state = 'lost' WHERE ref = ? AND state = 'sent'"),
      conclude: db.prepare("UPDATE lost_payments SET state = ?, transaction_id = ?, concluded_ms = ? WHERE ref = ? AND state IN ('sent', 'lost')"),
      seen: db.prepare('UPDATE lost_payments SET seen_by = ?, seen_ms = ? WHERE ref = ? AND concluded_ms IS NOT NULL AND seen_by IS NULL'),
      row: db.prepare('SELECT * FROM lost_payments WHERE ref = ?'),
      open: db.prepare("SELECT * FROM lost_payments WHERE state IN ('sent', 'lost') ORDER BY first_sent_ms"),
      shown: db.prepare("SELECT * FROM lost_payments WHERE state IN ('sent', 'lost') OR seen_by IS NULL ORDER BY first_sent_ms"),
    };
  }

  /** Before the request leaves: on disk with its cashier. */
  sending(ref: string, s: Sending): void {
    this.stmt.insert.run({
      ref,
      way: s.way,
      userId: s.session.user.id,
      userName: s.session.user.name,
      userRole: s.session.user.role,
      amountCents: s.amountCents,
      collectsRestOf: s.collectsRestOf ?? null,
      boot: this.boot,
      sentMs: this.now(),
      boundMs: s.way === 'terminal' ? TERMINAL_BOUND_MS : PROCESSING_BOUND_MS,
    });
    this.inFlight.add(ref);
  }

  /** The gateway answered (a record, or an error that proves nothing was made): nothing is unknown. */
  answered(ref: string): void {
    this.inFlight.delete(ref);
    this.requests.delete(ref);
    this.stmt.remove.run(ref);
  }

  /** The answer was lost. `request` (this process only) lets the core send it again within the re-send window. */
  lost(ref: string, request?: V2TransactionCreate): void {
    this.inFlight.delete(ref);
    if (request) this.requests.set(ref, request);
    this.stmt.lost.run(ref);
    this.deps.onChange?.();
  }

  /**
   * The gateway answered `t` for `ref`: checked against its tender (a mismatch is voided and
   * refused in words), then counted by `count` (the clerk record, the screen's outcome). The row
   * goes only after, whatever happened: a stop before that leaves it to the lookups.
   */
  async counted<T>(ref: string, t: V2Transaction, session: Session, count: (t: V2Transaction) => Result<T> | Promise<Result<T>>): Promise<Result<T>> {
    try {
      return (await this.deps.refs.check(ref, t, session)) ?? (await count(t));
    } finally {
      this.answered(ref);
    }
  }

  /**
   * The answer to `ref` was lost: noted (with `request`, for a re-send), then looked up at once. A
   * record found is counted as the sweep counts it and seen by `session`'s screen; null: no record
   * yet, or the gateway cannot be asked — unknown, and the core keeps asking.
   */
  async lostThenLookup(ref: string, session: Session, request?: V2TransactionCreate): Promise<Extract<LostAnswer, { kind: 'found' | 'refused' }> | null> {
    this.lost(ref, request);
    const found = await this.deps.client.findByApiId(ref, this.deps.locationId).catch(() => null);
    if (!found) return null;
    const a = await this.settle(ref, found, session);
    return a.kind === 'found' || a.kind === 'refused' ? a : null;
  }

  /** Whether this process holds a lost payment's request (for tests: it must not outlive the re-send window). */
  holdsRequest(ref: string): boolean {
    this.expire();
    return this.requests.has(ref);
  }

  /**
   * What the gateway knows of the payment, sending it again when it has no record and the window
   * is open. `seenBy`: the screen that asked shows the answer, so a conclusion leaves the banner.
   */
  async resolve(ref: string, seenBy?: Session): Promise<LostAnswer> {
    let p = this.running.get(ref);
    if (!p) {
      p = this.resolveOnce(ref).finally(() => this.running.delete(ref));
      this.running.set(ref, p);
    }
    const answer = await p;
    if (seenBy && answer.kind !== 'unknown') this.markSeen(ref, seenBy);
    return answer;
  }

  /** A record found by the caller right after the answer was lost: counted like one the sweep finds. */
  async settle(ref: string, t: V2Transaction, seenBy: Session): Promise<LostAnswer> {
    const row = this.stmt.row.get(ref) as Row | undefined;
    if (!row) return { kind: 'not_charged' };
    const answer = row.state === 'sent' || row.state === 'lost' ? await this.found(row, t) : await this.concluded(row);
    this.markSeen(ref, seenBy);
    return answer;
  }

  /** Asks about every payment still unknown (except those this process is still waiting on). */
  async resumeAll(): Promise<void> {
    const open = (this.stmt.open.all() as Row[]).filter((r) => !this.inFlight.has(r.ref));
    for (const r of open) await this.resolve(r.ref);
  }

  /**
   * The same attempt sent again by the screen whose answer was lost (the saved-card, terminal
   * and check screens charge again rather than ask): when the core found its charge meanwhile
   * and no screen has shown it yet, that answer, once (it is then seen); else null, and the
   * attempt stays spent (tender-refs.ts: refused in words, never answered with that sale).
   */
  async answerForRetry(session: Session, binding: TenderBinding): Promise<Extract<LostAnswer, { kind: 'found' }> | null> {
    const ref = this.deps.refs.spentRef(session, binding);
    const row = ref ? (this.stmt.row.get(ref) as Row | undefined) : undefined;
    if (!row || row.concluded_ms === null || row.seen_by !== null || row.state !== 'approved') return null;
    const a = await this.concluded(row);
    if (a.kind !== 'found') return null;
    this.markSeen(row.ref, session);
    return a;
  }

  /** Whether anything is still unknown (the sweep's timer runs only then). */
  anyOpen(): boolean {
    return (this.stmt.open.all() as Row[]).some((r) => !this.inFlight.has(r.ref));
  }

  /** What the counter's banner shows: every payment unknown, or concluded and not yet seen at the counter. */
  list(): LostPaymentView[] {
    const rows = (this.stmt.shown.all() as Row[]).filter((r) => !this.inFlight.has(r.ref));
    return rows.map((r) => this.viewOf(r));
  }

  /** Someone at the counter saw what became of it: it leaves the banner (audited). */
  seen(ref: string, by: Session): boolean {
    return this.markSeen(ref, by);
  }

  private markSeen(ref: string, by: Session): boolean {
    const row = this.stmt.row.get(ref) as Row | undefined;
    if (!row || row.concluded_ms === null || row.seen_by !== null) return false;
    this.stmt.seen.run(by.user.name, this.now(), ref);
    this.deps.audit?.record({
      kind: 'sale',
      user: { id: by.user.id, name: by.user.name },
      amountCents: row.amount_cents,
      transactionId: row.transaction_id,
      detail: `seen at the counter: the payment whose answer was lost (rung up by ${row.user_name}) was ${row.state.replace('_', ' ')}`,
    });
    this.deps.onChange?.();
    return true;
  }

  private viewOf(r: Row): LostPaymentView {
    const state: LostPaymentState = r.state === 'sent' || r.state === 'lost' ? 'checking' : r.state;
    const ref = r.transaction_id ? r.transaction_id.slice(-8).toUpperCase() : '';
    const message =
      state === 'checking'
        ? LOST_COPY.checking(r.user_name)
        : state === 'approved'
          ? LOST_COPY.approved(r.user_name, ref)
          : state === 'declined'
            ? LOST_COPY.declined(r.user_name)
            : state === 'not_charged'
              ? LOST_COPY.notCharged(r.user_name)
              : LOST_COPY.notCounted(r.user_name);
    return { id: r.ref, way: r.way, amountCents: r.amount_cents, cashierName: r.user_name, sentAt: r.first_sent_ms, state, message, transactionId: r.transaction_id };
  }

  private cashierOf(r: Row): Session {
    return { user: { id: r.user_id, name: r.user_name, role: r.user_role as Session['user']['role'] }, signedInAt: r.first_sent_ms };
  }

  private async resolveOnce(ref: string): Promise<LostAnswer> {
    this.expire();
    const row = this.stmt.row.get(ref) as Row | undefined;
    if (!row) {
      // Answered (the row goes only after the answer was counted), or never sent: its counted record, if any.
      const id = this.deps.refs.transactionOf(ref);
      if (!id) return { kind: 'not_charged' };
      try {
        return { kind: 'found', transaction: await this.deps.client.getTransaction(id), cashier: null };
      } catch {
        return { kind: 'unknown' };
      }
    }
    if (this.inFlight.has(ref)) return { kind: 'unknown' }; // its own request is still waiting for the answer
    if (row.state === 'not_charged') return { kind: 'not_charged' };
    if (row.state !== 'sent' && row.state !== 'lost') return this.concluded(row);
    let record: V2Transaction | null;
    try {
      record = await this.deps.client.findByApiId(ref, this.deps.locationId);
    } catch {
      return { kind: 'unknown' }; // the gateway cannot be asked: nothing is known
    }
    if (record) return this.found(row, record);
    const request = this.requests.get(ref);
    if (request) {
      this.stmt.resent.run(this.now(), this.boot, ref);
      try {
        return await this.found(row, await this.deps.client.createTransaction(request));
      } catch (err) {
        // Lost again, or refused (an error answer is no record, and the first request may still land): still unknown.
        if (!(err instanceof GatewayError)) throw err;
        return { kind: 'unknown' };
      }
    }
    if (this.now() - row.last_sent_ms > row.bound_ms) {
      this.conclude(row, 'not_charged', null, `not charged: the gateway has no record ${Math.round((this.now() - row.last_sent_ms) / 1000)} s after the last request (reference ${ref})`);
      return { kind: 'not_charged' };
    }
    return { kind: 'unknown' };
  }

  /** A record under the payment's reference: checked against its tender, then counted once as its cashier's. */
  private async found(row: Row, t: V2Transaction): Promise<LostAnswer> {
    const cashier = this.cashierOf(row);
    const refused = await this.deps.refs.check(row.ref, t, cashier);
    if (refused) {
      if (refused.ok) throw new Error('unreachable');
      this.conclude(row, 'not_counted', t.id ?? null, `not counted: ${refused.error.message}`);
      return { kind: 'refused', result: refused };
    }
    this.deps.clerks.record({ transactionId: t.id, action: 'sale', userId: row.user_id, userName: row.user_name, linkedTo: row.collects_rest_of, createdTs: Math.floor(this.now() / 1000) });
    const status = Number(t.status_id);
    // A check or a bank debit answered pending has been taken, as tender-refs.ts counts it.
    const ach = row.way === 'check' || t.payment_method === 'ach';
    const approved = status === STATUS.approved || status === STATUS.authonly || status === STATUS.settled || (ach && status !== STATUS.declined && status !== STATUS.voided);
    this.conclude(row, approved ? 'approved' : 'declined', t.id, `${approved ? 'approved' : 'not approved'}: found at the gateway after its answer was lost, $${formatMoney(toView(t).amountCents)}`);
    return { kind: 'found', transaction: t, cashier };
  }

  /** A payment concluded earlier: the same answer again (its record read afresh). */
  private async concluded(row: Row): Promise<LostAnswer> {
    if (!row.transaction_id) return { kind: 'not_charged' };
    try {
      const t = await this.deps.client.getTransaction(row.transaction_id);
      if (row.state === 'not_counted') return { kind: 'refused', result: { ok: false, error: { code: 'answer_mismatch', message: LOST_COPY.notCounted(row.user_name) } } };
      return { kind: 'found', transaction: t, cashier: this.cashierOf(row) };
    } catch {
      return { kind: 'unknown' };
    }
  }

  private conclude(row: Row, state: LostConclusion, transactionId: string | null, detail: string): void {
    const changed = this.stmt.conclude.run(state, transactionId, this.now(), row.ref).changes > 0;
    this.requests.delete(row.ref);
    if (!changed) return;
    this.deps.audit?.record({
      kind: 'sale',
      user: { id: row.user_id, name: row.user_name },
      amountCents: row.amount_cents,
      transactionId,
      detail: `payment whose answer was lost (${row.way}), ${detail}`,
    });
    this.deps.onChange?.();
  }

  /** Drops requests held past the re-send window. */
  private expire(): void {
    const now = this.now();
    for (const ref of this.requests.keys()) {
      const row = this.stmt.row.get(ref) as Row | undefined;
      if (!row || now - row.first_sent_ms > this.resendWindowMs) this.requests.delete(ref);
    }
  }
}

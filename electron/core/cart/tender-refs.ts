/**
 * References made and bound by the core (issue 20, point 2). Every transaction_api_id the
 * core sends for new money is made here — random, unguessable — and bound to one tender
 * before the request leaves: who asked (the window and the signed-in user), what for (a
 * sale screen, or one cart), the amount, the payment method and action, and the card (its
 * first six, last four and expiry), the saved method or the terminal. The binding is kept in
 * ringup.db, so a lost answer is looked up under the same reference after a restart too.
 *
 * What the screens send (`clientRef`) is only an attempt id: it groups the retries of one
 * tender in one window. The same attempt for the same tender gets the same reference (a
 * retry after a lost answer is the same sale at the gateway, never a second one); any other
 * use of it — another window, cart, amount or card, or a reference or transaction id seen on
 * a receipt — gets a new reference. An attempt id never reaches the gateway.
 *
 * The gateway's answer is checked against the binding (`check`): the amount asked, the card
 * or saved method, the payment method, the action, the reference it carries, and that no
 * other reference already took the same transaction. A mismatch is never counted; a charge
 * made for this request that does not match is voided, and the audit log says so.
 *
 * The cart hands its tender's reference to the sale, saved-card and terminal paths through
 * the core's own async context (`runWith`), never through an IPC argument: the renderer
 * cannot name a reference for new money.
 *
 * Simplifications: a keyed card is told apart by first six, last four and expiry (never
 * the full number, which is not stored), so two cards alike in all three count as one card
 * for a retry within one window, attempt and amount; a terminal's card is not known before
 * it is read, so a terminal answer is checked for amount, method, action and reference only.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { Session } from '../../../shared/ipc/contract';
import { formatMoney, parseMoney } from '../../../shared/payments/money';
import { fail, type Result } from '../../../shared/result';
import type { V2Transaction } from '../../client/v2-types';
import { currentCallerId } from '../../ipc/caller-context';
import type { AuditLog } from '../audit/audit-log';
import type { PosDatabase } from '../platform/pos-database';
import { shortRefOf } from '../sales/clerk-records';
import { STATUS, TYPE } from '../transactions/transaction-view';

export interface TenderBinding {
  /** `sale` (a sale screen, the saved-card charge, the terminal sale) or `cart:<cart id>`. */
  scope: string;
  /** The screen's attempt id (the cart's tender reference when the cart asks). */
  attempt: string;
  /** The amount asked without a tip; with `tipCents` what the gateway must answer for. */
  amountCents: number;
  /** The tip asked; null: the customer picks it on the terminal. */
  tipCents: number | null;
  method: 'cc' | 'ach';
  action: 'sale' | 'debit';
  /** `card:<first six>:<last four>:<expiry>`, `vault:<id>`, `terminal`, or `check:<routing>:<last four>`. */
  instrument: string;
}

interface Row {
  ref: string;
  owner: string;
  scope: string;
  attempt: string;
  amount_cents: number;
  tip_cents: number | null;
  method: string;
  action: string;
  instrument: string;
  transaction_id: string | null;
  answer: 'approved' | 'not_approved' | null;
}

export const REF_COPY = {
  notBound: 'This payment does not match the one it was started for. Nothing was charged; start the payment again.',
  alreadyApproved: (ref: string) =>
    `This payment was approved already (Ref ${ref}), so it is not charged again. Find it in today's transactions; start a new payment for anything more.`,
  mismatch: (what: string, asked: string, voided: boolean) =>
    `The payment gateway answered with ${what}, not the ${asked} asked: this payment was not counted${
      voided ? ', and that charge was voided. Charge again when ready.' : ". Ask a manager to check today's transactions before charging again."
    }`,
} as const;

/** A keyed card as the binding names it (never the full number). */
export const cardInstrument = (number: string, expiry: string): string => `card:${number.slice(0, 6)}:${number.slice(-4)}:${expiry}`;

const dollars = (cents: number) => `$${formatMoney(cents)}`;

export interface TenderRefsDeps {
  db: PosDatabase;
  /** Voids a charge that did not match its tender (as the gateway's admin user: a cashier's user may not void). */
  voidCharge?: (transactionId: string) => Promise<unknown>;
  audit?: Pick<AuditLog, 'record'>;
  now?: () => number;
}

/** Who asks: this window (the IPC caller) and its signed-in user. The offline queue keeps it as who may acknowledge a sale. */
export const ownerKeyOf = (session: Session): string => `${currentCallerId()}|${session.user.id}`;

export class TenderRefs {
  private readonly inherited = new AsyncLocalStorage<string>();
  private readonly now: () => number;

  constructor(private readonly deps: TenderRefsDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Who asks: this window and its signed-in user. */
  ownerOf(session: Session): string {
    return ownerKeyOf(session);
  }

  /**
   * The reference for this tender: the one the same owner's same attempt for the same tender
   * already has while its answer is not known (a retry), else a new one, on disk with its
   * binding before it is used. An attempt whose charge was approved is spent: sent again it is
   * refused in words (never answered with that sale, never charged again); one that was
   * declined gets a new reference.
   */
  refFor(session: Session, b: TenderBinding): Result<string> {
    const owner = this.ownerOf(session);
    const key = this.keyOf(owner, b);
    const found = this.deps.db.prepare('SELECT ref, transaction_id, answer FROM tender_refs WHERE binding_key = ? ORDER BY rowid DESC LIMIT 1').get(key) as
      | Pick<Row, 'ref' | 'transaction_id' | 'answer'>
      | undefined;
    if (found && found.transaction_id === null) return { ok: true, value: found.ref };
    if (found?.answer === 'approved') return fail('already_answered', REF_COPY.alreadyApproved(shortRefOf(found.transaction_id!)));
    const ref = `rr-${randomBytes(16).toString('base64url')}`;
    this.deps.db
      .prepare(
        `INSERT INTO tender_refs (ref, binding_key, owner, scope, attempt, amount_cents, tip_cents, method, action, instrument, created_ts)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(ref, key, owner, b.scope, b.attempt, b.amountCents, b.tipCents, b.method, b.action, b.instrument, Math.floor(this.now() / 1000));
    return { ok: true, value: ref };
  }

  /** The reference of this owner's attempt for this tender whose charge was approved (null: none). */
  spentRef(session: Session, b: TenderBinding): string | null {
    const row = this.deps.db.prepare('SELECT ref, answer FROM tender_refs WHERE binding_key = ? ORDER BY rowid DESC LIMIT 1').get(this.keyOf(this.ownerOf(session), b)) as
      | Pick<Row, 'ref' | 'answer'>
      | undefined;
    return row?.answer === 'approved' ? row.ref : null;
  }

  private keyOf(owner: string, b: TenderBinding): string {
    return JSON.stringify([owner, b.scope, b.attempt, b.amountCents, b.tipCents, b.method, b.action, b.instrument]);
  }

  /** The latest reference this window's user got for an attempt in a scope (null: none was made). */
  refOfAttempt(session: Session, scope: string, attempt: string): string | null {
    const row = this.deps.db
      .prepare('SELECT ref FROM tender_refs WHERE owner = ? AND scope = ? AND attempt = ? ORDER BY rowid DESC LIMIT 1')
      .get(this.ownerOf(session), scope, attempt) as { ref: string } | undefined;
    return row?.ref ?? null;
  }

  /** The transaction this reference was counted for (null: none yet). */
  transactionOf(ref: string): string | null {
    return this.row(ref)?.transaction_id ?? null;
  }

  /** Runs `fn` with the cart's tender reference handed to the sale path underneath. */
  runWith<T>(ref: string, fn: () => T): T {
    return this.inherited.run(ref, fn);
  }

  /**
   * The reference the cart handed down for this request, if its binding is this tender
   * (amount, tip, method, action and instrument); a mismatch is refused before anything is sent.
   */
  handedDown(b: Omit<TenderBinding, 'scope' | 'attempt'>): Result<string | null> {
    const ref = this.inherited.getStore();
    if (!ref) return { ok: true, value: null };
    const row = this.row(ref);
    const same = row && row.amount_cents === b.amountCents && row.tip_cents === b.tipCents && row.instrument === b.instrument;
    if (!same) return fail('not_bound', REF_COPY.notBound);
    // The cart binds a saved method by its id; whether it is a card or a bank account is the saved-card path's to say.
    if (row.method !== b.method || row.action !== b.action) this.deps.db.prepare('UPDATE tender_refs SET method = ?, action = ? WHERE ref = ? AND transaction_id IS NULL').run(b.method, b.action, ref);
    return { ok: true, value: ref };
  }

  /** The reference the cart handed down, whatever the tender (for looking up what a pending tender became). */
  handedDownRef(): string | null {
    return this.inherited.getStore() ?? null;
  }

  /**
   * The gateway's answer for `ref`, checked against its binding: null when it may be counted
   * (and it is recorded as this reference's transaction), else the refusal in words — after
   * voiding it when it is an approved charge made for this request.
   */
  async check(ref: string, t: V2Transaction, session: Session | null): Promise<Result<never> | null> {
    const row = this.row(ref);
    if (!row) return null;
    const problem = this.mismatchOf(row, t);
    const status = Number(t.status_id);
    if (!problem) {
      const answer = status === STATUS.approved || status === STATUS.authonly || status === STATUS.settled ? 'approved' : 'not_approved';
      // A check or a bank debit answered pending has been taken: spent like an approval.
      const taken = answer === 'approved' || (row.method === 'ach' && status !== STATUS.declined && status !== STATUS.voided);
      this.deps.db.prepare('UPDATE tender_refs SET transaction_id = ?, answer = ? WHERE ref = ?').run(t.id, taken ? 'approved' : 'not_approved', ref);
      return null;
    }
    // Ours: it carries this reference and no other reference took it. Another customer's sale is never voided here.
    const ours = t.transaction_api_id === ref && !this.takenElsewhere(ref, t.id);
    let voided = false;
    if (ours && (status === STATUS.approved || status === STATUS.authonly) && this.deps.voidCharge) {
      try {
        await this.deps.voidCharge(t.id);
        voided = true;
      } catch {
        voided = false; // said in the sentence: a manager checks today's list
      }
    }
    const asked = `${dollars(row.amount_cents + (row.tip_cents ?? 0))}${row.instrument.startsWith('card:') ? ` on the card ending ${row.instrument.split(':')[2]}` : ''}`;
    this.deps.audit?.record({
      kind: voided ? 'void' : 'sale',
      user: session ? { id: session.user.id, name: session.user.name } : null,
      amountCents: parseMoney(t.transaction_amount) ?? null,
      transactionId: t.id ?? null,
      detail: `not counted: the gateway answered with ${problem} for reference ${ref} (asked ${asked})${voided ? '; voided' : ''}`,
    });
    return fail('answer_mismatch', REF_COPY.mismatch(problem, asked, voided));
  }

  /**
   * The offline forwarder's check (offline-forwarder.ts checkAnswer): what `check` says, as the
   * sentence the queue records, or null when the answer is the tender (or the reference binds
   * nothing: a sale queued before references were bound).
   */
  async problemWith(ref: string, t: V2Transaction): Promise<string | null> {
    const r = await this.check(ref, t, null);
    return r === null || r.ok ? null : r.error.message;
  }

  private row(ref: string): Row | undefined {
    return this.deps.db.prepare('SELECT * FROM tender_refs WHERE ref = ?').get(ref) as Row | undefined;
  }

  private takenElsewhere(ref: string, transactionId: string): boolean {
    return this.deps.db.prepare('SELECT 1 FROM tender_refs WHERE transaction_id = ? AND ref != ?').get(transactionId, ref) !== undefined;
  }

  /** What in the answer is not the tender (null: all of it is). Fields a gateway leaves out are not held against it. */
  private mismatchOf(row: Row, t: V2Transaction): string | null {
    if (!t.id) return 'no transaction';
    if (t.transaction_api_id != null && t.transaction_api_id !== row.ref) return 'another sale\u2019s record';
    if (row.transaction_id !== null ? row.transaction_id !== t.id : this.takenElsewhere(row.ref, t.id)) return 'another sale\u2019s record';
    const total = parseMoney(t.transaction_amount);
    const tip = parseMoney(t.tip_amount) ?? 0;
    if (total === null || total - tip !== row.amount_cents || (row.tip_cents !== null && tip !== row.tip_cents)) return `an amount of ${total === null ? 'nothing' : dollars(total)}`;
    if (t.payment_method != null && t.payment_method !== row.method) return 'another payment method';
    const type = Number(t.type_id);
    if (t.type_id != null && row.action === 'sale' && type !== TYPE.sale) return 'another kind of transaction';
    const [kind, a, b] = row.instrument.split(':');
    if (kind === 'card') {
      if ((t.last_four ?? '').slice(-4) !== b || (t.first_six != null && t.first_six !== a)) return `the card ending ${(t.last_four ?? '????').slice(-4)}`;
    } else if (kind === 'vault') {
      if (t.account_vault_id != null && t.account_vault_id !== a) return 'another saved payment method';
    }
    return null;
  }
}

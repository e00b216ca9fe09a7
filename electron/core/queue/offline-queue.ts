/**
 * The offline store-and-forward queue (issue 13): card sales taken while the gateway
 * cannot be reached, kept in the app database (`offline_queue`, pos-database.ts) until
 * offline-forwarder.ts sends them.
 *
 * - Durable before it answers: `enqueue` is one committed SQLite transaction on a
 *   connection with synchronous = FULL (the WAL is fsynced at commit), so a sale the
 *   cashier saw as "approved offline" survives a kill -9 or a power cut.
 * - Card data is one AES-256-GCM blob, keyed with a SecretStore key, authenticated with the
 *   sale's transaction_api_id; it is set to NULL in the same statement that records the
 *   forward's result (or the expiry, or a withdrawal). A keyed card's blob holds number,
 *   expiry, CVV and ZIP; a card read on the terminal holds what the terminal answered for
 *   store-and-forward: its encrypted card data (e_track_data, e_format and the reader's KSN),
 *   which this app cannot read either. Only brand, last four, entry mode, amount, ZIP and
 *   the customer's optional name and phone or e-mail stay readable (the manager needs them
 *   to find the customer again).
 * - Each sale carries its transaction_api_id from the start; forwarding it again after a
 *   crash returns the gateway's original record, so nothing is charged twice.
 * - The rules are store settings (caps, keyed, manager approval, expiry); the cap check and
 *   the insert are one IMMEDIATE transaction, so two counters cannot both slip under the total cap.
 * - `withdraw` takes back a sale not yet sent (a cart cancelled at the counter): one
 *   statement guarded by state = 'pending', like the forwarder's result statement, so of
 *   the two exactly one wins (the forwarder also holds a withdrawal back while that very
 *   sale is in flight: OfflineForwarder.withdraw).
 *
 * - Acknowledged before it is sent (issue 20, point 3: the power-cut window): a sale is
 *   written "not yet acknowledged" (acked = 0) with the run of the app that queued it (its
 *   boot id) and the window and user that took it (owner). The forwarder sends only
 *   acknowledged sales; the screen acknowledges once it has shown "Approved offline"
 *   (`acknowledge`). One the screen never confirmed — queued by an earlier run (the power
 *   went, the app was killed), or older than a short grace in this run (the window went
 *   away) — is `unconfirmed`: shown at the next sign-in, where it is kept (acknowledged) or
 *   cancelled (`cancelUnconfirmed`, withdrawn like a cart's cancel, card data erased). Both
 *   statements are guarded by acked = 0 and state = 'pending', so of a late acknowledgement
 *   and a cancel exactly one wins.
 *
 * Simplification: "manager approval" means a manager is the one signed in and ringing it up.
 */
import { randomUUID } from 'node:crypto';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyedCard, QueueEntryMode, QueueItem, QueueItemState, QueueStatus, Role, StoreSettings } from '../../../shared/ipc/contract';
import { formatMoney } from '../../../shared/payments/money';
import { brandLabel } from '../sales/card-brand';
import type { PosDatabase } from '../platform/pos-database';

/** Name of the queue's card-data key in the SecretStore. */
export const OFFLINE_QUEUE_KEY_SECRET = 'offline-queue-key';

export type OfflineRules = Pick<
  StoreSettings,
  'offlinePaymentCapCents' | 'offlineTotalCapCents' | 'offlineAllowKeyed' | 'offlineApprovalAboveCents' | 'offlineExpiryHours' | 'offlineAlertHours'
>;

const dollars = (cents: number) => `$${formatMoney(cents).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;

/** Why a sale cannot be taken offline, in words for the cashier. */
export const OFFLINE_ERRORS = {
  keyed: 'The payment gateway cannot be reached, and this store does not take keyed cards offline. Take another payment, or wait until the gateway answers again.',
  overPayment: (cap: number) => `The payment gateway cannot be reached, and a sale taken offline is at most ${dollars(cap)}. Take another payment for this sale.`,
  overTotal: (waiting: number, cap: number) =>
    `The payment gateway cannot be reached, and the offline queue is full: ${dollars(waiting)} is waiting, and the limit is ${dollars(cap)}. Take another payment until the gateway answers again.`,
  needsManager: (above: number) => `An offline sale above ${dollars(above)} needs a manager: ask a manager to sign in and ring it up.`,
  debit: 'The payment gateway cannot be reached, and a debit card with PIN needs the bank online. Ask for a credit card or another payment.',
  noStoreAndForward: 'The payment gateway cannot be reached, and this terminal cannot store a card for later. Take another payment, or wait until the gateway answers again.',
} as const;

/**
 * A card read on the terminal for store-and-forward: the terminal's own encryption of the
 * card (its reader's key; the gateway decrypts it when the sale is forwarded), with the
 * masked facts it shows. Never a card number.
 */
export interface TerminalRead {
  kind: 'read';
  eTrackData: string;
  eFormat: string;
  /** The reader's key serial number (KSN), the interface's e_serial_number. */
  eSerialNumber: string;
  /** K: keyed on the terminal's pad. */
  entryMode: QueueEntryMode;
  /** Brand label ("Visa"). */
  brand: string;
  lastFour: string;
}

/** What a queued sale pays with: typed digits (no `kind`, as stored from the start) or a terminal's read. */
export type QueuedCard = KeyedCard | TerminalRead;

export const isTerminalRead = (c: QueuedCard): c is TerminalRead => 'kind' in c && c.kind === 'read';

/** The customer's details for a decline found after they left (both optional). */
export interface OfflineCustomer {
  name: string;
  contact: string;
}

export interface OfflineSaleInput {
  clientRef: string;
  /** The total: subtotal + tax + tip. */
  amountCents: number;
  taxCents: number;
  tipCents: number;
  card: QueuedCard;
  customer?: OfflineCustomer;
  clerk: { id: string; name: string; number: string | null; role: Role };
  locationId: string | null;
  productTransactionId: string | null;
  collectsRestOf: string | null;
  /** Card-not-present (typed in). */
  keyed: boolean;
  /** The window and user that took it (tender-refs.ts ownerKeyOf): they may acknowledge it; null: only a manager. */
  owner?: string | null;
}

/** What a withdrawal found: withdrawn now, or what became of the sale (forwarded, expired …), or nothing under that reference. */
export type WithdrawOutcome = QueueItem | null;

/** A queued sale ready to go: the stored row plus what the forward request needs. */
export interface DueSale {
  seq: number;
  clientRef: string;
  amountCents: number;
  taxCents: number;
  tipCents: number;
  clerkId: string;
  clerkName: string;
  clerkNumber: string | null;
  locationId: string | null;
  productTransactionId: string | null;
  collectsRestOf: string | null;
  attempts: number;
}

export interface ForwardResult {
  state: Exclude<QueueItemState, 'pending'>;
  message: string;
  transactionId: string | null;
}

interface Row {
  seq: number;
  client_ref: string;
  amount_cents: number;
  tax_cents: number;
  tip_cents: number;
  card_brand: string;
  last_four: string;
  zip: string;
  entry_mode: QueueEntryMode;
  customer_name: string;
  customer_contact: string;
  clerk_id: string;
  clerk_name: string;
  clerk_number: string | null;
  location_id: string | null;
  product_transaction_id: string | null;
  collects_rest_of: string | null;
  queued_ts: number;
  expires_ts: number;
  state: QueueItemState;
  attempts: number;
  message: string | null;
  transaction_id: string | null;
  forwarded_ts: number | null;
  acked: 0 | 1;
}

const ITEM_COLUMNS =
  'seq, client_ref, amount_cents, tax_cents, tip_cents, card_brand, last_four, zip, entry_mode, customer_name, customer_contact, clerk_id, clerk_name, clerk_number, location_id, product_transaction_id, collects_rest_of, queued_ts, expires_ts, state, attempts, message, transaction_id, forwarded_ts, acked';

/** How long this run waits for a screen to acknowledge a sale it queued before the sale counts as unconfirmed (seconds). */
export const ACK_GRACE_SECONDS = 30;

/** What the queue records of a sale cancelled at sign-in because its screen never said it was approved. */
export const UNCONFIRMED_CANCELLED = 'Cancelled at sign-in: the screen never said it was approved, so it was never sent and the card was never charged.';

function itemOf(r: Row): QueueItem {
  return {
    seq: r.seq,
    clientRef: r.client_ref,
    amountCents: r.amount_cents,
    taxCents: r.tax_cents,
    tipCents: r.tip_cents,
    cardBrand: r.card_brand,
    lastFour: r.last_four,
    zip: r.zip,
    entryMode: r.entry_mode,
    customerName: r.customer_name,
    customerContact: r.customer_contact,
    clerkName: r.clerk_name,
    queuedTs: r.queued_ts,
    expiresTs: r.expires_ts,
    state: r.state,
    attempts: r.attempts,
    message: r.message,
    transactionId: r.transaction_id,
    forwardedTs: r.forwarded_ts,
    acknowledged: r.acked === 1,
  };
}

function dueOf(r: Row): DueSale {
  return {
    seq: r.seq,
    clientRef: r.client_ref,
    amountCents: r.amount_cents,
    taxCents: r.tax_cents,
    tipCents: r.tip_cents,
    clerkId: r.clerk_id,
    clerkName: r.clerk_name,
    clerkNumber: r.clerk_number,
    locationId: r.location_id,
    productTransactionId: r.product_transaction_id,
    collectsRestOf: r.collects_rest_of,
    attempts: r.attempts,
  };
}

/** Why enqueue refused, or the queued item (also when this clientRef was queued before: the same item). */
export type EnqueueOutcome = { ok: true; item: QueueItem; fresh: boolean } | { ok: false; message: string };

export class OfflineQueue {
  private readonly now: () => number;
  private readonly stmts;
  /** This run of the app: stored with each sale it queues, so a later run knows which were left unacknowledged. */
  readonly bootId: string;

  constructor(
    private readonly db: PosDatabase,
    private readonly key: Buffer,
    opts: { now?: () => number; bootId?: string } = {},
  ) {
    if (key.length !== 32) throw new Error('The offline queue key must be 32 bytes (AES-256).');
    this.now = opts.now ?? Date.now;
    this.bootId = opts.bootId ?? randomUUID();
    this.stmts = {
      byRef: db.prepare(`SELECT ${ITEM_COLUMNS} FROM offline_queue WHERE client_ref = ?`),
      pendingTotals: db.prepare('SELECT pending_count AS n, pending_cents AS cents FROM offline_queue_totals WHERE id = 1'),
      nextExpiry: db.prepare(`SELECT MIN(expires_ts) AS next FROM offline_queue WHERE state = 'pending'`),
      insert: db.prepare(
        `INSERT INTO offline_queue (client_ref, amount_cents, tax_cents, tip_cents, card_brand, last_four, zip, entry_mode, customer_name, customer_contact,
           clerk_id, clerk_name, clerk_number, location_id, product_transaction_id, collects_rest_of, card_blob, queued_ts, expires_ts, acked, boot_id, owner)
         VALUES (@clientRef, @amountCents, @taxCents, @tipCents, @cardBrand, @lastFour, @zip, @entryMode, @customerName, @customerContact,
           @clerkId, @clerkName, @clerkNumber, @locationId, @productTransactionId, @collectsRestOf, @cardBlob, @queuedTs, @expiresTs, 0, @bootId, @owner)`,
      ),
      // Only what a screen acknowledged: a sale nobody was told of is never sent.
      due: db.prepare(`SELECT ${ITEM_COLUMNS} FROM offline_queue WHERE state = 'pending' AND acked = 1 AND next_try_ts <= ? ORDER BY seq LIMIT ?`),
      acknowledge: db.prepare(`UPDATE offline_queue SET acked = 1 WHERE client_ref = ? AND state = 'pending' AND acked = 0`),
      owner: db.prepare('SELECT owner FROM offline_queue WHERE client_ref = ?'),
      unconfirmed: db.prepare(
        `SELECT ${ITEM_COLUMNS} FROM offline_queue WHERE acked = 0 AND state = 'pending' AND (boot_id IS NOT ? OR queued_ts <= ?) ORDER BY seq`,
      ),
      cancelUnconfirmed: db.prepare(
        `UPDATE offline_queue SET state = 'withdrawn', card_blob = NULL, message = ? WHERE client_ref = ? AND state = 'pending' AND acked = 0`,
      ),
      blob: db.prepare('SELECT client_ref, card_blob FROM offline_queue WHERE seq = ?'),
      result: db.prepare(
        `UPDATE offline_queue SET state = @state, message = @message, transaction_id = @transactionId, forwarded_ts = @ts, card_blob = NULL, attempts = attempts + 1
         WHERE seq = @seq AND state = 'pending'`,
      ),
      failure: db.prepare(`UPDATE offline_queue SET attempts = attempts + 1, message = ?, next_try_ts = ? WHERE seq = ? AND state = 'pending'`),
      expire: db.prepare(
        `UPDATE offline_queue SET state = 'expired', card_blob = NULL, message = 'Not forwarded within the expiry window: this sale was never charged. Collect the money another way.'
         WHERE state = 'pending' AND expires_ts <= ?`,
      ),
      soon: db.prepare(`SELECT COUNT(*) AS n FROM offline_queue WHERE state = 'pending' AND expires_ts <= ?`),
      withdraw: db.prepare(
        `UPDATE offline_queue SET state = 'withdrawn', card_blob = NULL, message = 'Cancelled at the counter before it was sent: the card was never charged.'
         WHERE client_ref = ? AND state = 'pending'`,
      ),
      customer: db.prepare('UPDATE offline_queue SET customer_name = ?, customer_contact = ? WHERE client_ref = ?'),
      problems: db.prepare(`SELECT COUNT(*) AS n FROM offline_queue WHERE state IN ('declined', 'error', 'expired')`),
      list: db.prepare(`SELECT ${ITEM_COLUMNS} FROM offline_queue ORDER BY seq DESC LIMIT ?`),
      retryNow: db.prepare(`UPDATE offline_queue SET next_try_ts = 0 WHERE state = 'pending'`),
    };
  }

  private nowTs(): number {
    return Math.floor(this.now() / 1000);
  }

  /** The refusal sentence for this sale under these rules, or null when it may be taken offline. */
  refusal(input: Pick<OfflineSaleInput, 'amountCents' | 'keyed' | 'clerk'>, rules: OfflineRules, waitingCents: number): string | null {
    if (input.keyed && !rules.offlineAllowKeyed) return OFFLINE_ERRORS.keyed;
    if (input.amountCents > rules.offlinePaymentCapCents) return OFFLINE_ERRORS.overPayment(rules.offlinePaymentCapCents);
    if (waitingCents + input.amountCents > rules.offlineTotalCapCents) return OFFLINE_ERRORS.overTotal(waitingCents, rules.offlineTotalCapCents);
    if (rules.offlineApprovalAboveCents > 0 && input.amountCents > rules.offlineApprovalAboveCents && input.clerk.role !== 'manager') {
      return OFFLINE_ERRORS.needsManager(rules.offlineApprovalAboveCents);
    }
    return null;
  }

  /**
   * Checks the rules and stores the sale, durably, in one transaction. When it returns
   * ok the row is on disk (fsynced); only then may the cashier see "approved offline".
   */
  enqueue(input: OfflineSaleInput, rules: OfflineRules): EnqueueOutcome {
    return this.db
      .transaction((): EnqueueOutcome => {
        const existing = this.stmts.byRef.get(input.clientRef) as Row | undefined;
        if (existing) return { ok: true, item: itemOf(existing), fresh: false };
        const waiting = this.stmts.pendingTotals.get() as { cents: number };
        const refused = this.refusal(input, rules, waiting.cents);
        if (refused) return { ok: false, message: refused };
        const queuedTs = this.nowTs();
        const card = input.card;
        const read = isTerminalRead(card) ? card : null;
        const row: Omit<Row, 'seq'> = {
          client_ref: input.clientRef,
          amount_cents: input.amountCents,
          tax_cents: input.taxCents,
          tip_cents: input.tipCents,
          card_brand: read ? read.brand : brandLabel(null, (card as KeyedCard).number.slice(0, 6)),
          last_four: read ? read.lastFour : (card as KeyedCard).number.slice(-4),
          zip: read ? '' : (card as KeyedCard).zip,
          entry_mode: read ? read.entryMode : 'K',
          customer_name: cleanCustomer(input.customer).name,
          customer_contact: cleanCustomer(input.customer).contact,
          clerk_id: input.clerk.id,
          clerk_name: input.clerk.name,
          clerk_number: input.clerk.number,
          location_id: input.locationId,
          product_transaction_id: input.productTransactionId,
          collects_rest_of: input.collectsRestOf,
          queued_ts: queuedTs,
          expires_ts: queuedTs + rules.offlineExpiryHours * 3600,
          state: 'pending',
          attempts: 0,
          message: null,
          transaction_id: null,
          forwarded_ts: null,
          acked: 0,
        };
        const info = this.stmts.insert.run({
          clientRef: row.client_ref,
          amountCents: row.amount_cents,
          taxCents: row.tax_cents,
          tipCents: row.tip_cents,
          cardBrand: row.card_brand,
          lastFour: row.last_four,
          zip: row.zip,
          entryMode: row.entry_mode,
          customerName: row.customer_name,
          customerContact: row.customer_contact,
          clerkId: row.clerk_id,
          clerkName: row.clerk_name,
          clerkNumber: row.clerk_number,
          locationId: row.location_id,
          productTransactionId: row.product_transaction_id,
          collectsRestOf: row.collects_rest_of,
          cardBlob: this.seal(input.clientRef, input.card),
          queuedTs: row.queued_ts,
          expiresTs: row.expires_ts,
          bootId: this.bootId,
          owner: input.owner ?? null,
        });
        return { ok: true, item: itemOf({ ...row, seq: Number(info.lastInsertRowid) }), fresh: true };
      })
      .immediate();
  }

  /**
   * The screen showed "Approved offline": the sale may be sent. Answers the item afterwards
   * (acknowledged, or what it had become: a cancel at sign-in may have won); null for an
   * unknown reference.
   */
  acknowledge(clientRef: string): QueueItem | null {
    this.stmts.acknowledge.run(clientRef);
    return this.item(clientRef);
  }

  /** Who took a queued sale (window and user, tender-refs.ts ownerKeyOf); null when unknown or none was recorded. */
  ownerOf(clientRef: string): string | null {
    return (this.stmts.owner.get(clientRef) as { owner: string | null } | undefined)?.owner ?? null;
  }

  /**
   * Waiting sales no screen acknowledged: queued by an earlier run of the app, or more than
   * `graceSeconds` ago by this one. Oldest first.
   */
  unconfirmed(graceSeconds = ACK_GRACE_SECONDS): QueueItem[] {
    return (this.stmts.unconfirmed.all(this.bootId, this.nowTs() - graceSeconds) as Row[]).map(itemOf);
  }

  /**
   * Cancels a sale no screen acknowledged (state `withdrawn`, card data erased), guarded by
   * acked = 0: a late acknowledgement wins over it, and it over a late acknowledgement.
   * Answers the item afterwards; null for an unknown reference.
   */
  cancelUnconfirmed(clientRef: string): QueueItem | null {
    this.stmts.cancelUnconfirmed.run(UNCONFIRMED_CANCELLED, clientRef);
    return this.item(clientRef);
  }

  /** Pending sales whose next attempt is due, oldest first. */
  due(limit: number): DueSale[] {
    return (this.stmts.due.all(this.nowTs(), limit) as Row[]).map(dueOf);
  }

  /** The card data of a pending sale (null once forwarded, expired or withdrawn: it was erased). */
  cardOf(seq: number): QueuedCard | null {
    const r = this.stmts.blob.get(seq) as { client_ref: string; card_blob: Buffer | null } | undefined;
    if (!r?.card_blob) return null;
    return this.open(r.client_ref, r.card_blob);
  }

  /**
   * Records forwarding results and erases their card data, all in one commit (a group
   * commit: losing the last few to a crash only means forwarding them again, which the
   * transaction_api_id makes harmless).
   */
  recordResults(results: ReadonlyArray<{ seq: number } & ForwardResult>): void {
    if (results.length === 0) return;
    const ts = this.nowTs();
    this.db.transaction(() => {
      for (const r of results) this.stmts.result.run({ seq: r.seq, state: r.state, message: r.message, transactionId: r.transactionId, ts });
    })();
  }

  /** A forward that got no usable answer: try again after `retryAt` (unix seconds). */
  recordFailure(seq: number, message: string, retryAt: number): void {
    this.stmts.failure.run(message, retryAt, seq);
  }

  /** Pending sales past their expiry become `expired` (card data erased); answers how many. */
  expireDue(): number {
    return this.stmts.expire.run(this.nowTs()).changes;
  }

  /**
   * Takes a sale back that was not sent yet (state `withdrawn`, card data erased), in one
   * statement guarded by state = 'pending'. Answers the item as it is afterwards: withdrawn
   * now, or what it had already become (approved, declined …); null for an unknown reference.
   * Call it through OfflineForwarder.withdraw, which holds it back while the sale is in flight.
   */
  withdraw(clientRef: string): WithdrawOutcome {
    this.stmts.withdraw.run(clientRef);
    return this.item(clientRef);
  }

  /** Records the customer's name and phone or e-mail on a queued sale (for a decline after they left); false when there is no such sale. */
  setCustomer(clientRef: string, customer: OfflineCustomer): boolean {
    const c = cleanCustomer(customer);
    return this.stmts.customer.run(c.name, c.contact, clientRef).changes === 1;
  }

  /** Every pending sale is due now (a manager asked to forward now). */
  makeAllDue(): void {
    this.stmts.retryNow.run();
  }

  status(rules: Pick<OfflineRules, 'offlineAlertHours'>, run: { forwarding: boolean; progress: QueueStatus['progress'] } = { forwarding: false, progress: null }): QueueStatus {
    const p = this.stmts.pendingTotals.get() as { n: number; cents: number };
    const next = (this.stmts.nextExpiry.get() as { next: number | null }).next;
    const soon = this.stmts.soon.get(this.nowTs() + rules.offlineAlertHours * 3600) as { n: number };
    const problems = this.stmts.problems.get() as { n: number };
    return {
      pendingCount: p.n,
      pendingCents: p.cents,
      forwarding: run.forwarding,
      progress: run.progress,
      expiringSoonCount: soon.n,
      nextExpiryTs: next,
      problemCount: problems.n,
    };
  }

  list(limit = 500): QueueItem[] {
    return (this.stmts.list.all(limit) as Row[]).map(itemOf);
  }

  item(clientRef: string): QueueItem | null {
    const r = this.stmts.byRef.get(clientRef) as Row | undefined;
    return r ? itemOf(r) : null;
  }

  /** iv (12) | tag (16) | ciphertext; the clientRef is authenticated with it, so a blob cannot be moved to another row. */
  private seal(clientRef: string, card: QueuedCard): Buffer {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(Buffer.from(clientRef));
    const body = Buffer.concat([c.update(JSON.stringify(card), 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), body]);
  }

  private open(clientRef: string, blob: Buffer): QueuedCard {
    const d = createDecipheriv('aes-256-gcm', this.key, blob.subarray(0, 12));
    d.setAAD(Buffer.from(clientRef));
    d.setAuthTag(blob.subarray(12, 28));
    return JSON.parse(Buffer.concat([d.update(blob.subarray(28)), d.final()]).toString('utf8')) as QueuedCard;
  }
}

/** The customer's details as stored: trimmed, at most 64 characters each. */
function cleanCustomer(c: OfflineCustomer | undefined): OfflineCustomer {
  return { name: (c?.name ?? '').trim().slice(0, 64), contact: (c?.contact ?? '').trim().slice(0, 64) };
}

/**
 * For the X and Z reports: sales taken offline in [from, to] (unix seconds), and how many of them the gateway declined or refused once forwarded.
 * A sale withdrawn before it was sent (its cart cancelled) is no sale.
 */
export function offlineCountsBetween(db: PosDatabase, from: number, to: number): { offline: number; declinedAfterForward: number } {
  const r = db
    .prepare(`SELECT COUNT(*) AS offline, COALESCE(SUM(state IN ('declined', 'error')), 0) AS declined FROM offline_queue WHERE queued_ts BETWEEN ? AND ? AND state <> 'withdrawn'`)
    .get(from, to) as { offline: number; declined: number };
  return { offline: r.offline, declinedAfterForward: r.declined };
}

/**
 * Forwards the offline queue (offline-queue.ts) to the gateway once it answers again
 * (issue 13).
 *
 * - In order: sales are started oldest first, at most `parallelism` in flight (4); a large
 *   backlog (at least `bulkFrom` waiting, 200) drains with up to `bulkParallelism` (32, the
 *   load bench:engine holds the engine to), so a long outage's queue catches up at the
 *   gateway's pace rather than four at a time (bench:queue: 16 reached 42-48 % of the
 *   engine's direct rate, 32 reached 51-58 %).
 * - Each forward sends the sale's own transaction_api_id: a retry after a lost answer, a
 *   crash or a kill -9 gets the gateway's original record back, never a second charge.
 * - No answer (unreachable, timeout, lost connection), 401/403, 429 or a 5xx: the sale
 *   stays pending, this run stops, and the next starts after a backoff (1 s doubling to
 *   `maxBackoffMs`) — or at once when the core's health probe sees the gateway again.
 * - A 201 is a result: approved (also partly) or declined. Any other 4xx means the
 *   gateway refused the request itself — or that it already has a sale under this
 *   transaction_api_id and says so with a 4xx instead of answering the original (the
 *   interface does not promise a 201 for a repeat). So before recording `error` the sale is
 *   looked up by its transaction_api_id: found, it is that sale's result; not found, it is
 *   recorded as `error` and not retried (the manager collects another way); the lookup
 *   unanswered, the sale stays pending. Results are recorded in group commits; their card
 *   data is erased in the same statement.
 * - A keyed sale forwards its typed card; a card read on the terminal forwards the
 *   terminal's encrypted card data (e_track_data, e_format, e_serial_number), which the
 *   gateway decrypts; the entry mode comes from inside it.
 * - `withdraw` takes back a sale not sent yet; while that sale is in flight it waits for
 *   the answer, so a sale the gateway took is never withdrawn (and never lost from the queue).
 * - Pending sales past the expiry window are marked `expired` and never sent.
 */
import type { QueueStatus, StoreSettings } from '../../../shared/ipc/contract';
import { formatMoney, parseMoney } from '../../../shared/payments/money';
import { declineCause } from '../../../shared/payments/reason-codes';
import { GatewayError, type GatewayClient } from '../../client/gateway-client';
import type { V2Transaction, V2TransactionCreate } from '../../client/v2-types';
import { isTerminalRead, type DueSale, type ForwardResult, type OfflineQueue, type QueuedCard, type WithdrawOutcome } from './offline-queue';
import { outcomeSentence, STATUS, approvedCents } from '../transactions/transaction-view';

export interface ForwarderOptions {
  queue: OfflineQueue;
  client: GatewayClient;
  settings: () => Pick<StoreSettings, 'offlineAlertHours'>;
  /** Forwards in flight at once (default 4). */
  parallelism?: number;
  /** Forwards in flight while a large backlog drains (default 32; never below `parallelism`). */
  bulkParallelism?: number;
  /** A run that starts with at least this many sales waiting is a bulk drain (default 200). */
  bulkFrom?: number;
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** The queue changed (throttled to one call per `statusEveryMs`, plus one when a run ends). */
  onStatus?: (status: QueueStatus) => void;
  statusEveryMs?: number;
  /** A sale reached the gateway (approved or declined): the core records who rang it up. */
  onForwarded?: (sale: DueSale, transactionId: string) => void;
  /** Results are committed in groups of at most this many (default 64). */
  commitEvery?: number;
  /** A run stopped on a gateway that did not answer: the next starts by itself after `waitMs` (or sooner, when kicked). */
  onBackoff?: (waitMs: number) => void;
  /**
   * Checked again just before a sale is sent (issue 20, point 1: a terminal's read is checked
   * before it is queued and before it is forwarded): a sentence keeps it from the gateway and
   * records it as `error` with that sentence; null sends it.
   */
  refuse?: (sale: DueSale, card: QueuedCard) => string | null;
  /**
   * The gateway's answer checked against the tender its reference was made for (issue 20,
   * point 2: tender-refs.ts problemWith): a sentence when it is not that tender (another
   * amount, card or sale), which records the sale as `error` with it instead of counting the
   * answer; null counts it.
   */
  checkAnswer?: (sale: DueSale, t: V2Transaction) => Promise<string | null>;
}

const TRANSIENT = (status: number) => status === 0 || status === 401 || status === 403 || status === 408 || status === 429 || status >= 500;

function failureWords(err: unknown): string {
  if (err instanceof GatewayError) {
    if (err.status === 0) return `The gateway did not answer (${err.errors.general?.[0] ?? 'no answer'}). Will try again.`;
    return `The gateway answered HTTP ${err.status}. Will try again.`;
  }
  return 'Forwarding failed unexpectedly. Will try again.';
}

/**
 * What a forwarded sale's answer means for the queue. The sentences are for the manager
 * after the customer has left (not "ask for another card"): what happened, and what to collect.
 */
export function resultOf(t: V2Transaction, askedCents: number): ForwardResult {
  const status = Number(t.status_id);
  const reason = t.reason_code_id == null ? null : Number(t.reason_code_id);
  if (status === STATUS.approved || status === STATUS.authonly) {
    const got = approvedCents(t);
    const message =
      got < askedCents
        ? `Partly approved once sent: $${formatMoney(got)} of $${formatMoney(askedCents)}. Reach the customer and collect the other $${formatMoney(askedCents - got)} another way.`
        : 'Approved.';
    return { state: 'approved', message, transactionId: t.id };
  }
  if (status === STATUS.declined) {
    return { state: 'declined', message: `Declined once sent (${declineCause(reason)}): the card was not charged. Reach the customer and collect $${formatMoney(askedCents)} another way.`, transactionId: t.id };
  }
  return { state: 'error', message: outcomeSentence(reason, status), transactionId: t.id };
}

/** The request's card fields: a keyed card's digits, or the terminal's encrypted read. */
function cardFields(card: QueuedCard): Pick<V2TransactionCreate, 'e_track_data' | 'e_format' | 'e_serial_number' | 'account_number' | 'exp_date' | 'cvv' | 'billing_zip'> {
  if (isTerminalRead(card)) return { e_track_data: card.eTrackData, e_format: card.eFormat, e_serial_number: card.eSerialNumber };
  return { account_number: card.number, exp_date: card.expiry, cvv: card.cvv, billing_zip: card.zip };
}

export class OfflineForwarder {
  private readonly parallelism: number;
  private readonly bulkParallelism: number;
  private readonly bulkFrom: number;
  private readonly baseBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly statusEveryMs: number;
  private readonly commitEvery: number;
  private running: Promise<void> | null = null;
  private again = false;
  private backoffMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private statusTimer: NodeJS.Timeout | undefined;
  private progress: QueueStatus['progress'] = null;
  private stopped = false;
  private results: Array<{ seq: number } & ForwardResult> = [];
  /** Sales being forwarded right now (seq → its forward), so a withdrawal waits for the answer. */
  private readonly inFlight = new Map<number, Promise<boolean>>();
  private forwarded: Array<{ sale: DueSale; transactionId: string }> = [];

  constructor(private readonly o: ForwarderOptions) {
    this.parallelism = Math.max(1, o.parallelism ?? 4);
    this.bulkParallelism = Math.max(this.parallelism, o.bulkParallelism ?? 32);
    this.bulkFrom = o.bulkFrom ?? 200;
    this.baseBackoffMs = o.baseBackoffMs ?? 1_000;
    this.maxBackoffMs = o.maxBackoffMs ?? 30_000;
    this.statusEveryMs = o.statusEveryMs ?? 250;
    this.commitEvery = o.commitEvery ?? 64;
    this.backoffMs = this.baseBackoffMs;
  }

  /** The queue's state now, with this forwarder's run. */
  status(): QueueStatus {
    return this.o.queue.status(this.o.settings(), { forwarding: this.running !== null, progress: this.progress });
  }

  /** Start forwarding now (the gateway answers again, a sale was queued, a manager asked). */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run().finally(() => {
      this.running = null;
      this.progress = null;
      this.emitNow();
      if (this.again && !this.stopped) {
        this.again = false;
        void this.kick();
      }
    });
    this.emitNow();
    return this.running;
  }

  /** Resolves when no run is active. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.statusTimer) clearTimeout(this.statusTimer);
  }

  private async run(): Promise<void> {
    const q = this.o.queue;
    if (q.expireDue() > 0) this.emitSoon();
    let down = false;
    let done = 0;
    for (;;) {
      const waiting = q.status(this.o.settings()).pendingCount;
      const width = waiting >= this.bulkFrom ? this.bulkParallelism : this.parallelism;
      const batch = q.due(Math.max(256, width * 64));
      if (batch.length === 0 || down || this.stopped) break;
      this.progress = { done, total: done + waiting };
      let next = 0;
      const worker = async () => {
        while (!down && !this.stopped && next < batch.length) {
          const sale = batch[next++]!;
          const ok = await this.forwardOne(sale);
          if (!ok) {
            down = true;
            break;
          }
          done++;
          this.progress = { done, total: Math.max(this.progress?.total ?? 0, done) };
          this.emitSoon();
        }
      };
      await Promise.all(Array.from({ length: Math.min(width, batch.length) }, worker));
      this.flush();
    }
    this.flush();
    if (down && !this.stopped) {
      // The gateway went away again: wait, then try again; the health probe's kick cuts the wait short.
      const wait = this.backoffMs;
      this.backoffMs = Math.min(this.backoffMs * 2, this.maxBackoffMs);
      this.retryTimer = setTimeout(() => void this.kick(), wait);
      this.retryTimer.unref();
      this.o.onBackoff?.(wait);
    } else {
      this.backoffMs = this.baseBackoffMs;
    }
  }

  /**
   * Takes back a sale that was not sent yet (a cart cancelled at the counter). Waits while
   * that sale is in flight and records what the gateway answered first, so a sale the
   * gateway took comes back as approved (to be voided) rather than withdrawn. Answers the
   * item afterwards: `withdrawn`, or what it had become; null for an unknown reference.
   */
  async withdraw(clientRef: string): Promise<WithdrawOutcome> {
    for (;;) {
      // A result still waiting for its group commit is recorded first: the DB then tells the truth.
      this.flush();
      const item = this.o.queue.item(clientRef);
      if (!item) return null;
      const flying = this.inFlight.get(item.seq);
      if (flying) {
        await flying.catch(() => undefined);
        continue;
      }
      if (item.state !== 'pending') return item;
      // Nothing awaits between the check above and this statement: the forwarder cannot start it meanwhile.
      const out = this.o.queue.withdraw(clientRef);
      this.emitNow();
      return out;
    }
  }

  /** Forwards one sale; false when the gateway could not be used (the run stops). */
  private forwardOne(sale: DueSale): Promise<boolean> {
    const p = this.send(sale).finally(() => this.inFlight.delete(sale.seq));
    // Marked before the card is read (synchronously, in send's first step): a withdrawal sees it.
    this.inFlight.set(sale.seq, p);
    return p;
  }

  private async send(sale: DueSale): Promise<boolean> {
    const card = this.o.queue.cardOf(sale.seq);
    if (!card) return true; // recorded meanwhile (another run, a withdrawal): nothing to send
    const refused = this.o.refuse?.(sale, card);
    if (refused) {
      this.record(sale, { state: 'error', message: refused, transactionId: null });
      return true;
    }
    try {
      const t = await this.o.client.createTransaction({
        action: 'sale',
        payment_method: 'cc',
        ...(sale.locationId ? { location_id: sale.locationId } : {}),
        ...(sale.productTransactionId ? { product_transaction_id: sale.productTransactionId } : {}),
        transaction_amount: formatMoney(sale.amountCents),
        ...(sale.taxCents > 0 ? { tax: formatMoney(sale.taxCents) } : {}),
        ...(sale.tipCents > 0 ? { tip_amount: formatMoney(sale.tipCents) } : {}),
        ...cardFields(card),
        transaction_api_id: sale.clientRef,
        ...(sale.clerkNumber ? { clerk_number: sale.clerkNumber } : {}),
      });
      await this.answered(sale, t);
      return true;
    } catch (err) {
      if (err instanceof GatewayError && !TRANSIENT(err.status)) {
        // A gateway may refuse a repeated transaction_api_id instead of answering the original: ask it first.
        let found: V2Transaction | null;
        try {
          found = await this.o.client.findByApiId(sale.clientRef, sale.locationId ?? undefined);
        } catch (lookupErr) {
          this.o.queue.recordFailure(sale.seq, failureWords(lookupErr), Math.floor(Date.now() / 1000));
          return false;
        }
        if (found) {
          await this.answered(sale, found);
          return true;
        }
        const first = Object.values(err.errors)[0]?.[0]?.replace(/\.$/, '');
        this.record(sale, { state: 'error', message: `The gateway refused this sale${first ? `: ${first}` : ''}. Collect the money another way.`, transactionId: null });
        return true;
      }
      this.o.queue.recordFailure(sale.seq, failureWords(err), Math.floor(Date.now() / 1000));
      return false;
    }
  }

  /** An answer (or the record found for the sale's reference) is counted only when it is the tender the reference was made for. */
  private async answered(sale: DueSale, t: V2Transaction): Promise<void> {
    const wrong = (await this.o.checkAnswer?.(sale, t)) ?? null;
    if (wrong !== null) this.record(sale, { state: 'error', message: wrong, transactionId: t.id ?? null });
    else this.recordAnswer(sale, t);
  }

  /** The gateway's record of a forwarded sale (its answer, or found by transaction_api_id). */
  private recordAnswer(sale: DueSale, t: V2Transaction): void {
    // A gateway that answers another sale for this id (it should not) is an error, not a success.
    if (t.transaction_api_id && t.transaction_api_id !== sale.clientRef) {
      this.record(sale, { state: 'error', message: 'The gateway answered with another sale for this reference. Check it in Transactions.', transactionId: t.id });
      return;
    }
    this.record(sale, resultOf(t, parseMoney(t.transaction_amount) ?? sale.amountCents));
    this.forwarded.push({ sale, transactionId: t.id });
  }

  private record(sale: DueSale, r: ForwardResult): void {
    this.results.push({ seq: sale.seq, ...r });
    if (this.results.length >= this.commitEvery) this.flush();
  }

  private flush(): void {
    if (this.results.length === 0) return;
    const results = this.results;
    const forwarded = this.forwarded;
    this.results = [];
    this.forwarded = [];
    this.o.queue.recordResults(results);
    for (const f of forwarded) {
      try {
        this.o.onForwarded?.(f.sale, f.transactionId);
      } catch {
        /* who rang it up is a nicety: the sale is recorded either way */
      }
    }
  }

  private emitNow(): void {
    if (this.statusTimer) clearTimeout(this.statusTimer);
    this.statusTimer = undefined;
    this.o.onStatus?.(this.status());
  }

  /** At most one status every statusEveryMs while forwarding (10,000 sales must not send 10,000 events). */
  private emitSoon(): void {
    if (this.statusTimer || !this.o.onStatus) return;
    this.statusTimer = setTimeout(() => {
      this.statusTimer = undefined;
      this.o.onStatus?.(this.status());
    }, this.statusEveryMs);
    this.statusTimer.unref();
  }
}

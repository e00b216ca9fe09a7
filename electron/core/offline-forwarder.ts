/**
 * Forwards the offline queue (offline-queue.ts) to the gateway once it answers again
 * (issue 13).
 *
 * - In order: sales are started oldest first, at most `parallelism` in flight.
 * - Each forward sends the sale's own transaction_api_id: a retry after a lost answer, a
 *   crash or a kill -9 gets the gateway's original record back, never a second charge.
 * - No answer (unreachable, timeout, lost connection), 401/403, 429 or a 5xx: the sale
 *   stays pending, this run stops, and the next starts after a backoff (1 s doubling to
 *   `maxBackoffMs`) — or at once when the core's health probe sees the gateway again.
 * - A 201 is a result: approved (also partly) or declined. Any other 4xx means the
 *   gateway refused the request itself: recorded as `error` and not retried (the manager
 *   collects another way). Results are recorded in group commits; their card data is
 *   erased in the same statement.
 * - Pending sales past the expiry window are marked `expired` and never sent.
 */
import type { QueueStatus, StoreSettings } from '../../shared/ipc/contract';
import { formatMoney, parseMoney } from '../../shared/payments/money';
import { GatewayError, type GatewayClient } from '../client/gateway-client';
import type { V2Transaction } from '../client/v2-types';
import type { DueSale, ForwardResult, OfflineQueue } from './offline-queue';
import { outcomeSentence, STATUS, approvedCents } from './transaction-view';

export interface ForwarderOptions {
  queue: OfflineQueue;
  client: GatewayClient;
  settings: () => Pick<StoreSettings, 'offlineAlertHours'>;
  /** Forwards in flight at once (default 4). */
  parallelism?: number;
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** The queue changed (throttled to one call per `statusEveryMs`, plus one when a run ends). */
  onStatus?: (status: QueueStatus) => void;
  statusEveryMs?: number;
  /** A sale reached the gateway (approved or declined): the core records who rang it up. */
  onForwarded?: (sale: DueSale, transactionId: string) => void;
  /** Results are committed in groups of at most this many (default 64). */
  commitEvery?: number;
}

const TRANSIENT = (status: number) => status === 0 || status === 401 || status === 403 || status === 408 || status === 429 || status >= 500;

function failureWords(err: unknown): string {
  if (err instanceof GatewayError) {
    if (err.status === 0) return `The gateway did not answer (${err.errors.general?.[0] ?? 'no answer'}). Will try again.`;
    return `The gateway answered HTTP ${err.status}. Will try again.`;
  }
  return 'Forwarding failed unexpectedly. Will try again.';
}

/** What a forwarded sale's answer means for the queue. */
export function resultOf(t: V2Transaction, askedCents: number): ForwardResult {
  const status = Number(t.status_id);
  if (status === STATUS.approved || status === STATUS.authonly) {
    const got = approvedCents(t);
    const message = got < askedCents ? `Partly approved: $${formatMoney(got)} of $${formatMoney(askedCents)}. Collect the rest another way.` : 'Approved.';
    return { state: 'approved', message, transactionId: t.id };
  }
  if (status === STATUS.declined) return { state: 'declined', message: outcomeSentence(t.reason_code_id == null ? null : Number(t.reason_code_id), status), transactionId: t.id };
  return { state: 'error', message: outcomeSentence(t.reason_code_id == null ? null : Number(t.reason_code_id), status), transactionId: t.id };
}

export class OfflineForwarder {
  private readonly parallelism: number;
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
  private forwarded: Array<{ sale: DueSale; transactionId: string }> = [];

  constructor(private readonly o: ForwarderOptions) {
    this.parallelism = Math.max(1, o.parallelism ?? 4);
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
      const batch = q.due(Math.max(256, this.parallelism * 64));
      if (batch.length === 0 || down || this.stopped) break;
      this.progress = { done, total: done + q.status(this.o.settings()).pendingCount };
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
      await Promise.all(Array.from({ length: Math.min(this.parallelism, batch.length) }, worker));
      this.flush();
    }
    this.flush();
    if (down && !this.stopped) {
      // The gateway went away again: wait, then try again; the health probe's kick cuts the wait short.
      const wait = this.backoffMs;
      this.backoffMs = Math.min(this.backoffMs * 2, this.maxBackoffMs);
      this.retryTimer = setTimeout(() => void this.kick(), wait);
      this.retryTimer.unref();
    } else {
      this.backoffMs = this.baseBackoffMs;
    }
  }

  /** Forwards one sale; false when the gateway could not be used (the run stops). */
  private async forwardOne(sale: DueSale): Promise<boolean> {
    const card = this.o.queue.cardOf(sale.seq);
    if (!card) return true; // recorded meanwhile (another run): nothing to send
    try {
      const t = await this.o.client.createTransaction({
        action: 'sale',
        payment_method: 'cc',
        ...(sale.locationId ? { location_id: sale.locationId } : {}),
        ...(sale.productTransactionId ? { product_transaction_id: sale.productTransactionId } : {}),
        transaction_amount: formatMoney(sale.amountCents),
        ...(sale.taxCents > 0 ? { tax: formatMoney(sale.taxCents) } : {}),
        ...(sale.tipCents > 0 ? { tip_amount: formatMoney(sale.tipCents) } : {}),
        account_number: card.number,
        exp_date: card.expiry,
        cvv: card.cvv,
        billing_zip: card.zip,
        transaction_api_id: sale.clientRef,
        ...(sale.clerkNumber ? { clerk_number: sale.clerkNumber } : {}),
      });
      // A gateway that answers another sale for this id (it should not) is an error, not a success.
      if (t.transaction_api_id && t.transaction_api_id !== sale.clientRef) {
        this.record(sale, { state: 'error', message: 'The gateway answered with another sale for this reference. Check it in Transactions.', transactionId: t.id });
        return true;
      }
      this.record(sale, resultOf(t, parseMoney(t.transaction_amount) ?? sale.amountCents));
      this.forwarded.push({ sale, transactionId: t.id });
      return true;
    } catch (err) {
      if (err instanceof GatewayError && !TRANSIENT(err.status)) {
        const first = Object.values(err.errors)[0]?.[0];
        this.record(sale, { state: 'error', message: `The gateway refused this sale${first ? `: ${first}` : ''}. Collect the money another way.`, transactionId: null });
        return true;
      }
      this.o.queue.recordFailure(sale.seq, failureWords(err), Math.floor(Date.now() / 1000));
      return false;
    }
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

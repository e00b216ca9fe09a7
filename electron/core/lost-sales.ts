/**
 * Never charged twice when a sale's answer is lost (issue 8, point 6). A timeout or a
 * broken connection says nothing about the card: the POST may be on its way, in the
 * gateway's processor, or already approved. One lookup that finds no record right after
 * the timeout proves nothing either — the POST may land a moment later (the audit's race:
 * a slow hop, the card charged twice after "not charged"). So a lost sale stays unknown
 * until its outcome is really known:
 *
 * - A lookup by its transaction_api_id that finds the record is the outcome.
 * - Otherwise the same request is sent again, same transaction_api_id: the interface makes
 *   a retried request with it non-duplicating (the gateway answers the original when the
 *   first landed, and parallel duplicates share one result), so the answer to the re-send
 *   is the one real outcome. Only a record is conclusive: a re-send that is lost, or
 *   refused with an error, leaves the sale unknown.
 * - The card data needed to re-send is held in memory only (never stored or logged), for
 *   at most RESEND_WINDOW_MS after the first attempt; after that only lookups run, and "not
 *   charged" is concluded once the last request sent is older than the gateway's
 *   processing bound (its 10 s processor time-out plus a margin) and no record exists.
 *
 * Simplifications: held sales live in this process only (a restart forgets them; the
 * screen asking about one then hears "no record"); a POST held in transit longer than the
 * processing bound after the re-send window is not covered — the screen keeps the same
 * transaction_api_id for the next attempt of that sale, so even then charging it again
 * joins the late one.
 */
import { GatewayError, type GatewayClient } from '../client/gateway-client';
import type { V2Transaction, V2TransactionCreate } from '../client/v2-types';

/** The gateway's processor time-out (GATEWAY-FACTS: 8.10 and above are answered as a time-out after 10 s). */
export const PROCESSOR_TIMEOUT_MS = 10_000;
/** A request sent longer ago than this, with no record, was not charged: the processor bound plus a margin for the way there. */
export const PROCESSING_BOUND_MS = PROCESSOR_TIMEOUT_MS + 5_000;
/** How long after the first attempt the core may send a lost sale again by itself (and holds its card data). */
export const RESEND_WINDOW_MS = 120_000;

/** `context`: what the caller held with the sale (who charged it), for its clerk record once found. */
export type LostSaleAnswer<C> =
  | { kind: 'found'; transaction: V2Transaction; context: C | null }
  | { kind: 'unknown' }
  | { kind: 'not_charged' };

interface Held<C> {
  /** The request as first sent (card data included); null once the re-send window closed. */
  request: V2TransactionCreate | null;
  context: C;
  firstSentAt: number;
  lastSentAt: number;
}

export interface LostSalesOptions {
  client: GatewayClient;
  locationId: string | undefined;
  now?: () => number;
  resendWindowMs?: number;
  processingBoundMs?: number;
}

export class LostSales<C> {
  private readonly held = new Map<string, Held<C>>();
  /** One resolution per sale at a time (a second caller shares it: never two re-sends racing). */
  private readonly running = new Map<string, Promise<LostSaleAnswer<C>>>();
  private readonly now: () => number;
  private readonly resendWindowMs: number;
  private readonly boundMs: number;

  constructor(private readonly opts: LostSalesOptions) {
    this.now = opts.now ?? Date.now;
    this.resendWindowMs = opts.resendWindowMs ?? RESEND_WINDOW_MS;
    this.boundMs = opts.processingBoundMs ?? PROCESSING_BOUND_MS;
  }

  /** A sale whose answer was lost: sent at `sentAt` with this request (its transaction_api_id is `clientRef`). */
  hold(clientRef: string, request: V2TransactionCreate, context: C, sentAt: number): void {
    this.held.set(clientRef, { request, context, firstSentAt: sentAt, lastSentAt: sentAt });
  }

  /** Its outcome is known another way (found at once, or handed to the offline queue). */
  forget(clientRef: string): void {
    this.held.delete(clientRef);
  }

  /** Whether card data of this sale is still held (for tests: it must not outlive the re-send window). */
  holdsCardData(clientRef: string): boolean {
    return this.held.get(clientRef)?.request != null;
  }

  /** What the gateway knows of the sale, re-sending it when it has no record and the window is open. */
  resolve(clientRef: string): Promise<LostSaleAnswer<C>> {
    const running = this.running.get(clientRef);
    if (running) return running;
    const p = this.resolveOnce(clientRef).finally(() => this.running.delete(clientRef));
    this.running.set(clientRef, p);
    return p;
  }

  private async resolveOnce(clientRef: string): Promise<LostSaleAnswer<C>> {
    this.expire();
    let record: V2Transaction | null;
    try {
      record = await this.opts.client.findByApiId(clientRef, this.opts.locationId);
    } catch {
      return { kind: 'unknown' }; // the gateway cannot be asked: nothing is known
    }
    const held = this.held.get(clientRef);
    if (record) return this.found(clientRef, record, held);
    // No record, and nothing sent from here that could still land: it was not charged.
    if (!held) return { kind: 'not_charged' };
    if (held.request) {
      held.lastSentAt = this.now();
      try {
        return this.found(clientRef, await this.opts.client.createTransaction(held.request), held);
      } catch (err) {
        // Lost again, or refused (an error answer is no record, and the first request may still land): still unknown.
        if (!(err instanceof GatewayError)) throw err;
        return { kind: 'unknown' };
      }
    }
    if (this.now() - held.lastSentAt > this.boundMs) {
      this.held.delete(clientRef);
      return { kind: 'not_charged' };
    }
    return { kind: 'unknown' };
  }

  private found(clientRef: string, transaction: V2Transaction, held: Held<C> | undefined): LostSaleAnswer<C> {
    this.held.delete(clientRef);
    return { kind: 'found', transaction, context: held?.context ?? null };
  }

  /** Drops card data past the re-send window, and sales past the processing bound after that (their answer is "no record"). */
  private expire(): void {
    const now = this.now();
    for (const [ref, h] of this.held) {
      if (h.request && now - h.firstSentAt > this.resendWindowMs) h.request = null;
      if (!h.request && now - h.lastSentAt > this.boundMs) this.held.delete(ref);
    }
  }
}

/**
 * One transaction_api_id per payment attempt (issue 8, point 6: never charged twice). When
 * an answer may have been lost, trying again must be the same sale at the gateway: the
 * interface makes a request with a transaction_api_id it has seen non-duplicating (it
 * answers the original). So the id is kept until the outcome is known (an answer came:
 * approved, declined, or the terminal ended it) and changes only for a different attempt
 * (another amount, card, customer or check). Keeping it after an error that left nothing
 * at the gateway is harmless: an id with no record there is simply a new sale.
 */
import { cardSafe } from '../../../shared/payments/masking';

/** A new client reference (a sale's or a cart's transaction_api_id): random, and never card-like, which the gateway refuses in an id. */
export const newClientRef = (): string => cardSafe(() => crypto.randomUUID());

export class AttemptRef {
  private what: string | null = null;
  private ref = '';

  /** The id for an attempt described by `what` (same description, same id until `settle`). */
  for(what: string): string {
    if (what !== this.what) {
      this.what = what;
      this.ref = newClientRef();
    }
    return this.ref;
  }

  /** The outcome is known: the next attempt is a new sale. */
  settle(): void {
    this.what = null;
  }
}

/** Error codes after which the outcome is known and nothing was charged: the terminal ended the sale itself. */
const KNOWN_OUTCOME_CODES = new Set(['terminal']);

/** Settles `ref` when the answer tells the outcome (a result, or an error that says what happened). */
export function settleWhenKnown(ref: AttemptRef, r: { ok: true } | { ok: false; error: { code: string } }): void {
  if (r.ok || KNOWN_OUTCOME_CODES.has(r.error.code)) ref.settle();
}

/**
 * What makes two POST transaction requests "the same request" for transaction_api_id
 * idempotency: the action, the payment method as sent, the amounts that move money
 * (transaction_amount, tip_amount, surcharge_amount, in cents, so "10" and "10.00" agree)
 * and the card or account as sent (account_number, exp_date, routing, track_data,
 * e_track_data, micr_data, a vault or previous transaction by id or api id, or the card a
 * terminal read). A repeat whose fingerprint differs is refused (422 under
 * transaction_api_id), as Stripe refuses an idempotency key reused with other parameters;
 * an identical retry (the app's offline queue and lost-sale re-sends) answers the first.
 * Fields that move no money and name no card (description, clerk, custom fields …) are
 * left out: a retry that adds a description is still the same payment.
 *
 * Stored as an HMAC-SHA-256 under a key derived from the vault key, so the column never
 * holds a card number, nor a plain hash of one (a card number has too few unknown digits
 * for an unkeyed hash to hide it).
 *
 * Simplification: the card is compared as sent, so the same card sent another way (typed
 * once, from its vault the next time) is another request.
 */
import { createHmac } from 'node:crypto';
import { parseMoney } from '../../../shared/payments/money';
import { present, type Body } from './input-fields';

const AMOUNTS = ['transaction_amount', 'tip_amount', 'surcharge_amount'] as const;
const CARD_FIELDS = [
  'account_number', 'exp_date', 'routing', 'track_data', 'e_track_data', 'e_format', 'micr_data',
  'account_vault_id', 'account_vault_api_id', 'previous_transaction_id', 'previous_transaction_api_id',
] as const;

export class RequestFingerprints {
  private readonly key: Buffer;

  constructor(vaultKey: Buffer) {
    // A key of its own (domain-separated from the vault's encryption key).
    this.key = createHmac('sha256', vaultKey).update('ringup transaction request fingerprint v1').digest();
  }

  /** `presented`: the card a terminal read (no number), standing in for the card fields. */
  of(action: string, body: Body, presented?: { firstSix: string | null; lastFour: string; expDate: string | null }): string {
    const parts: string[] = [action, present(body.payment_method) ? String(body.payment_method).toLowerCase() : ''];
    for (const k of AMOUNTS) parts.push(present(body[k]) ? String(parseMoney(body[k]) ?? String(body[k])) : '');
    for (const k of CARD_FIELDS) {
      const v = body[k];
      if (!present(v)) parts.push('');
      else if (k === 'account_number' || k === 'routing') parts.push(String(v).replace(/[\s-]/g, ''));
      else parts.push(typeof v === 'string' ? v : JSON.stringify(v));
    }
    if (presented) parts.push(`${presented.firstSix ?? ''}:${presented.lastFour}:${presented.expDate ?? ''}`);
    return createHmac('sha256', this.key).update(parts.join('\u0000')).digest('hex');
  }
}

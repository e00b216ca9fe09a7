/**
 * Turns a failed gateway call into something a cashier can read: one sentence in
 * `message`, and per-field sentences keyed by the names the renderer's forms use.
 * The gateway's own messages are already sentences ("Account Number is invalid.");
 * they are passed through as text, never as the JSON envelope they came in.
 */
import { fail, type Result } from '../../../shared/result';
import { GatewayError } from '../../client/gateway-client';

export const GATEWAY_MESSAGES = {
  unreachable: 'The payment gateway cannot be reached right now. Check the connection and try again; the card was not charged.',
  timeout: 'The payment gateway did not answer in time. Look the sale up in Transactions before trying again.',
  lost: 'The connection to the payment gateway broke before it answered. Check Transactions before trying a payment again.',
  unauthorized: 'Ringup could not sign in to the payment gateway. Ask a manager to check the gateway settings.',
  forbidden: 'The payment gateway does not allow this action for this account.',
  notFound: 'The payment gateway does not know this transaction.',
  invalid: 'The payment gateway did not accept this request.',
  serverError: 'The payment gateway had a problem. Please try again in a moment.',
  unknown: 'Something went wrong talking to the payment gateway.',
} as const;

/** Gateway field → the field name the renderer shows the message under. */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  account_number: 'card.number',
  exp_date: 'card.expiry',
  cvv: 'card.cvv',
  billing_zip: 'card.zip',
  transaction_amount: 'amount',
  tip_amount: 'tip',
  tax: 'tax',
  notification_email_address: 'email',
};

function clean(text: string): string {
  // Defensive: never let something that looks like a card number through in a message.
  return text.replace(/\d{12,19}/g, '[card number]').slice(0, 300);
}

export function gatewayFailure(err: unknown): Result<never> {
  if (!(err instanceof GatewayError)) return fail('gateway_error', GATEWAY_MESSAGES.unknown);
  if (err.status === 0) {
    // Only a refused connection proves nothing was sent; a timeout or a broken connection may have been acted on.
    const why = err.errors.general?.[0];
    if (why === 'unreachable') return fail('gateway_unreachable', GATEWAY_MESSAGES.unreachable);
    return why === 'lost' ? fail('gateway_lost', GATEWAY_MESSAGES.lost) : fail('gateway_timeout', GATEWAY_MESSAGES.timeout);
  }
  if (err.status === 401) return fail('gateway_unauthorized', GATEWAY_MESSAGES.unauthorized);
  if (err.status >= 500) return fail('gateway_error', GATEWAY_MESSAGES.serverError);

  const fields: Record<string, string[]> = {};
  const sentences: string[] = [];
  for (const [key, messages] of Object.entries(err.errors)) {
    const texts = messages.map(clean);
    sentences.push(...texts);
    if (key !== 'general') fields[FIELD_NAMES[key] ?? key] = texts;
  }
  const code = err.status === 403 ? 'forbidden' : err.status === 404 ? 'not_found' : 'gateway_rejected';
  const lead = err.status === 403 ? GATEWAY_MESSAGES.forbidden : err.status === 404 ? GATEWAY_MESSAGES.notFound : GATEWAY_MESSAGES.invalid;
  const message = sentences.length > 0 ? sentences.join(' ') : lead;
  return fail(code, message, Object.keys(fields).length > 0 ? fields : undefined);
}

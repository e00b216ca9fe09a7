/**
 * Whether a transaction was paid on a pay link's page (the gateway's transaction record names
 * it: `paylink_id`), and what that link asked for: its receipt then prints as a pay link payment
 * (shared/receipts/receipt-document.ts payLinkReceiptDocument). A gateway that does not say (no
 * such field, or the link cannot be read) prints the ordinary sale receipt.
 */
import { parseMoney } from '../../../shared/payments/money';
import type { PayLinkFacts } from '../../../shared/receipts/receipt-document';
import type { GatewayClient } from '../../client/gateway-client';

interface PaylinkRow {
  amount_due: string | null;
  description: string | null;
  remaining_balance?: string | null;
  status_id: number;
}

const cents = (s: string | null | undefined) => (s == null || s === '' ? null : parseMoney(s));

export async function payLinkFacts(client: GatewayClient, transactionId: string): Promise<PayLinkFacts | null> {
  try {
    const t = (await client.getTransaction(transactionId)) as unknown as { paylink_id?: string | null };
    if (!t.paylink_id) return null;
    const r = await client.request<{ paylink: PaylinkRow }>('GET', `/paylinks/${encodeURIComponent(t.paylink_id)}`);
    const due = cents(r.paylink.amount_due);
    return { description: r.paylink.description, amountCents: due, remainingCents: r.paylink.status_id === 1 ? 0 : due === null ? null : cents(r.paylink.remaining_balance) };
  } catch {
    return null;
  }
}

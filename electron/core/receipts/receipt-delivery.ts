/**
 * Whether a receipt e-mail went out: after the transaction edit that queues it, the
 * gateway's outbox (`GET /v2/notifications`) says sent (the mail server took it), or why it
 * waits (no mail server; the server refused it and it is tried again). The counter says
 * "sent" only then. The outbox is read for a short while (the engine sends about once a
 * second); still unsent after that, the e-mail is waiting. A gateway that does not share its
 * outbox (a remote one: 404) cannot say, and the counter says so instead of "sent".
 */
import type { ReceiptDelivery } from '../../../shared/ipc/contract';
import { GatewayError, type GatewayClient } from '../../client/gateway-client';

export const RECEIPT_DELIVERY_TEXT = {
  notYet: 'the gateway has not sent it yet; the outbox keeps it.',
  notShared: 'this gateway does not say when its e-mail goes out.',
} as const;

interface OutboxRow {
  sent_ts: number | null;
  send_error?: string | null;
}

export interface DeliveryWait {
  /** How many times the outbox is read. */
  reads: number;
  /** Between reads (ms). */
  everyMs: number;
}

/** About three seconds: the engine's mail loop runs every second. */
export const RECEIPT_DELIVERY_WAIT: DeliveryWait = { reads: 12, everyMs: 250 };

export async function receiptDelivery(client: GatewayClient, transactionId: string, locationId: string | undefined, wait: DeliveryWait = RECEIPT_DELIVERY_WAIT): Promise<ReceiptDelivery> {
  for (let i = 0; i < wait.reads; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, wait.everyMs));
    let row: OutboxRow | undefined;
    try {
      const r = await client.request<{ notifications?: OutboxRow[] }>('GET', '/notifications', undefined, {
        transaction_id: transactionId,
        channel: 'email',
        sort: '-created_ts',
        page_size: 1,
        ...(locationId ? { location_id: locationId } : {}),
      });
      row = r.notifications?.[0];
    } catch (err) {
      if (err instanceof GatewayError && err.status === 404) return { state: 'waiting', why: RECEIPT_DELIVERY_TEXT.notShared };
      throw err;
    }
    if (row?.sent_ts) return { state: 'sent', why: null };
    // The engine's own sentence, final for now: no mail server, or the server's refusal (tried again later).
    if (row?.send_error) return { state: 'waiting', why: row.send_error };
  }
  return { state: 'waiting', why: RECEIPT_DELIVERY_TEXT.notYet };
}

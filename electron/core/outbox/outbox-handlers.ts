/**
 * `outbox:list` (managers): the store's e-mail and SMS outbox, read from the engine's
 * `GET /v2/notifications` (newest first, a page at a time). A gateway that does not
 * serve it (a remote one) answers 404, told in one sentence instead of an error code.
 */
import type { HandlerMap, OutboxMessage } from '../../../shared/ipc/contract';
import { OUTBOX_PAGE_SIZE } from '../../../shared/ipc/contract';
import { fail, ok } from '../../../shared/result';
import { GatewayError, type GatewayClient } from '../../client/gateway-client';
import type { V2ListMeta } from '../../client/v2-types';
import { gatewayFailure } from '../gateway/gateway-messages';

export const OUTBOX_MESSAGES = {
  notServed: 'This gateway does not share its outbox: the messages it sends cannot be listed here.',
} as const;

/** A row of GET /v2/notifications (fields the screen uses). */
interface V2Notification {
  id: string;
  channel: 'email' | 'sms';
  kind: string;
  to_address: string;
  subject: string;
  body: string;
  link: string | null;
  created_ts: number;
  sent_ts: number | null;
  send_error?: string | null;
}

const toMessage = (n: V2Notification): OutboxMessage => ({
  id: n.id,
  channel: n.channel,
  kind: n.kind,
  to: n.to_address,
  subject: n.subject,
  body: n.body,
  link: n.link ?? null,
  createdTs: n.created_ts,
  sentTs: n.sent_ts ?? null,
  error: n.send_error ?? null,
});

export function createOutboxHandlers(deps: { client: GatewayClient; locationId: string | undefined }): Pick<HandlerMap, 'outbox:list'> {
  const { client, locationId } = deps;
  return {
    'outbox:list': async ({ channel, page }) => {
      try {
        const r = await client.request<{ notifications?: V2Notification[]; meta?: V2ListMeta }>('GET', '/notifications', undefined, {
          page,
          page_size: OUTBOX_PAGE_SIZE,
          sort: '-created_ts',
          ...(channel ? { channel } : {}),
          ...(locationId ? { location_id: locationId } : {}),
        });
        const total = r.meta?.pagination?.totalCount ?? r.notifications?.length ?? 0;
        return ok({ rows: (r.notifications ?? []).map(toMessage), total, page, pageCount: Math.max(1, Math.ceil(total / OUTBOX_PAGE_SIZE)) });
      } catch (err) {
        if (err instanceof GatewayError && err.status === 404) return fail('not_found', OUTBOX_MESSAGES.notServed);
        return gatewayFailure(err);
      }
    },
  };
}

/**
 * The notification outbox, readable (engine extension under /v2, same credentials):
 * `GET /v2/notifications` (filters channel, kind, to_address, resource_type, resource_id,
 * created_ts, sent_ts…; paging; newest first) and `GET /v2/notifications/{id}`. Every
 * e-mail and SMS the engine queued through `ctx.notify` (receipts, recurring notices,
 * pay links, invoices, reminders) is here with its link, whether sent or not: sent_ts is
 * set by the SMTP transport when the mail server accepted it, send_error says why not.
 * Read-only: declared once, routes, filters and the OpenAPI part derive from it.
 */
import type { ResourceDef } from '../framework/resource';
import { idField, tsField } from '../merchant/field-kit';
import { MANAGERS } from '../framework/permissions';

const ro = { readOnly: true } as const;
const text = { type: 'string', ...ro } as const;

export const notificationResource: ResourceDef = {
  name: 'notification',
  plural: 'notifications',
  table: 'notification_outbox',
  scope: { kind: 'column', column: 'location_id' },
  defaultSort: '-created_ts',
  methods: ['list', 'view'],
  // The outbox holds customers' addresses and payment links: the managers' outbox screen.
  allow: { list: MANAGERS, view: MANAGERS },
  fields: {
    id: idField,
    location_id: { ...text, filter: 'exact' },
    channel: { type: 'string', enum: ['email', 'sms'], ...ro, filter: 'exact' },
    kind: { ...text, filter: 'exact' },
    to_address: { ...text, filter: 'text' },
    subject: { ...text, filter: 'text' },
    body: { ...text, filter: false, sortable: false },
    link: { ...text, filter: false },
    resource_type: { ...text, filter: 'exact' },
    resource_id: { ...text, filter: 'exact' },
    transaction_id: { ...text, filter: 'exact' },
    created_ts: tsField,
    sent_ts: { type: 'integer', ...ro, filter: 'timestamp' },
    send_attempts: { type: 'integer', ...ro },
    send_error: { ...text, filter: false },
  },
};

/**
 * The postback delivery log (engine extension under /v2, same credentials): one record
 * per event and config, read-only, derived like every declared resource (list with
 * filters and paging, view, the OpenAPI document). A config's log is
 * `GET /v2/postbackdeliveries?postback_config_id=<id>`; `POST
 * /v2/postbackdeliveries/{id}/redeliver` (postbacks-module.ts) sends one again.
 * `data` is the JSON text exactly as posted; `attempts_log` lists every attempt.
 */
import type { ResourceDef } from '../framework/resource';
import { idField, refExpand, tsField } from '../merchant/field-kit';
import { MANAGERS } from '../framework/permissions';

const ro = { readOnly: true } as const;

export const postbackDeliveryResource: ResourceDef = {
  name: 'postbackdelivery',
  plural: 'postbackdeliveries',
  table: 'postback_deliveries',
  scope: { kind: 'column', column: 'location_id' },
  defaultSort: '-created_ts',
  methods: ['list', 'view'],
  // The log holds every record as it was posted (vaults, contacts): the managers who set postbacks up.
  allow: { list: MANAGERS, view: MANAGERS },
  fields: {
    id: idField,
    postback_config_id: { type: 'string', ...ro, filter: 'exact' },
    location_id: { type: 'string', ...ro, filter: 'exact' },
    type: { type: 'string', enum: ['CREATE', 'UPDATE', 'DELETE'], ...ro, filter: 'exact' },
    resource: { type: 'string', enum: ['contact', 'transaction', 'transactionbatch', 'accountvault'], ...ro, filter: 'exact' },
    record_id: { type: 'string', ...ro, filter: 'exact' },
    data: { type: 'string', ...ro, filter: false, sortable: false },
    number_of_attempts: { type: 'integer', ...ro },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'], ...ro, filter: 'exact' },
    next_attempt_ts: { type: 'integer', ...ro },
    last_status_code: { type: 'integer', ...ro },
    last_error: { type: 'string', ...ro, filter: false },
    attempts_log: { type: 'json', ...ro },
    delivered_ts: { type: 'integer', ...ro },
    created_ts: tsField,
    modified_ts: tsField,
  },
  expands: {
    postback_config: refExpand('postbackconfig', 'postback_config_id'),
  },
};

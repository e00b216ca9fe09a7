/**
 * Postback configs (CRUD plus GET view/list, the natural extension of the interface's
 * POST/PUT/DELETE). product_transaction_id is required for resource `transaction` and
 * `transactionbatch` and must belong to the location. basic_auth_username/password are
 * accepted and never returned (kept in the database because delivering a postback
 * needs them; the password sealed under the app's key when the engine is embedded,
 * framework/engine-meta.ts sealColumnSecret). Delivery: ../postbacks/postbacks-module.ts. attempt_interval is at least
 * 1 second (a retry is never immediate).
 */
import { sealColumnSecret } from '../framework/engine-meta';
import { MSG } from '../framework/errors';
import type { ResourceDef, Row } from '../framework/resource';
import { bool, createdUserExpand, idField, locationRef, refExpand, str, systemUser, tsField } from './field-kit';
import { MERCHANT_MSG } from './messages';
import { MANAGERS } from '../framework/permissions';

export const POSTBACK_RESOURCES = ['contact', 'transaction', 'transactionbatch', 'accountvault'] as const;

function sealPassword(ctx: Parameters<typeof sealColumnSecret>[0], values: Row): void {
  if (typeof values.basic_auth_password === 'string') values.basic_auth_password = sealColumnSecret(ctx, values.basic_auth_password);
}

export const postbackConfigResource: ResourceDef = {
  name: 'postbackconfig',
  plural: 'postbackconfigs',
  table: 'postback_configs',
  scope: { kind: 'column', column: 'location_id' },
  defaultSort: '-created_ts',
  methods: ['list', 'view', 'create', 'update', 'delete'],
  // A config sends every record of its kind (with vault and contact) to any URL: managers only.
  allow: { list: MANAGERS, view: MANAGERS, create: MANAGERS, update: MANAGERS, delete: MANAGERS },
  fields: {
    id: idField,
    location_id: locationRef,
    resource: { type: 'string', required: true, enum: POSTBACK_RESOURCES },
    product_transaction_id: { type: 'string', min: 24, max: 36, ref: 'product_transaction' },
    url: str(1, 255, { required: true, format: 'url' }),
    on_create: bool(1),
    on_update: bool(1),
    on_delete: bool(0),
    is_active: bool(1),
    format: { type: 'string', enum: ['api-default'], default: 'api-default' },
    number_of_attempts: { type: 'integer', minValue: 1, maxValue: 10, default: 3 },
    attempt_interval: { type: 'integer', minValue: 1, maxValue: 86_400, default: 300 },
    expands: str(0, 255),
    basic_auth_username: str(0, 64, { writeOnly: true }),
    basic_auth_password: str(0, 64, { writeOnly: true }),
    created_user_id: systemUser,
    created_ts: tsField,
    modified_ts: tsField,
  },
  expands: {
    created_user: createdUserExpand,
    location: refExpand('location', 'location_id'),
    product_transaction: refExpand('product_transaction', 'product_transaction_id'),
  },
  beforeInsert({ ctx, input }) {
    sealPassword(ctx, input.values);
  },
  beforeUpdate({ ctx, input }) {
    sealPassword(ctx, input.values);
  },
  validate({ ctx, errs, input, existing }) {
    const merged: Row = { ...(existing ?? {}), ...input.values };
    if ((merged.resource === 'transaction' || merged.resource === 'transactionbatch') && !merged.product_transaction_id) {
      errs.add('product_transaction_id', MSG.BLANK);
    }
    if (typeof merged.product_transaction_id === 'string') {
      const pt = ctx.stmt('SELECT location_id FROM product_transactions WHERE id = ?').get(merged.product_transaction_id) as Row | undefined;
      if (pt && pt.location_id !== merged.location_id) errs.add('product_transaction_id', MERCHANT_MSG.PRODUCT_TRANSACTION_NOT_OF_LOCATION);
    }
  },
};

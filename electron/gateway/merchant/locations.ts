/**
 * Locations (merchants) and PUT /v2/locations/{id}/credentials.
 *
 * - A user sees the locations it belongs to and all their descendants.
 * - parent_id, name and branding_domain_url are required on create (the endpoint table;
 *   the field table also flags tz, which defaults to America/New_York here).
 * - location_api_key and ticket_hash_key are generated (UUID, 36 characters); they and
 *   location_api_id change through /credentials (each 1-36 there).
 * - location_api_id is unique among the children of one parent, so api_id addressing
 *   is `GET /v2/locations/{location_api_id}?api_id=true&location_id=<parent_id>`.
 * - default_cc / default_ach must name a cc / ach product transaction of the location.
 * - No DELETE (the interface has none): 405.
 */
import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../framework/context';
import { keepsDigitsOf } from '../framework/card-mask';
import { MSG } from '../framework/errors';
import { newKeyUuid } from '../framework/ids';
import { checkApiIdUnique } from '../framework/records';
import type { ExpandFn, ResourceDef, Row } from '../framework/resource';
import { bool, createdUserExpand, idField, phone, refExpand, str, systemUser, tsField } from './field-kit';
import { MERCHANT_MSG } from './messages';
import { ANY_USER, MANAGERS } from '../framework/permissions';

const productTransactionsExpand: ExpandFn = (ctx, row, auth) => {
  const def = ctx.resource('product_transaction');
  const rows = ctx.stmt('SELECT * FROM product_transactions WHERE location_id = ? ORDER BY created_ts, rowid').all(row.id) as Row[];
  return rows.map((r) => ctx.serialize(def, r, auth));
};

const terminalsExpand: ExpandFn = (ctx, row, auth) => {
  const def = ctx.resource('terminal');
  const rows = ctx.stmt('SELECT * FROM terminals WHERE location_id = ? ORDER BY created_ts, rowid').all(row.id) as Row[];
  return rows.map((r) => ctx.serialize(def, r, auth));
};

export function brandingDomainOf(ctx: EngineContext, id: unknown): Row | null {
  if (typeof id !== 'string') return null;
  const d = ctx.stmt('SELECT id, url, title, created_ts, modified_ts FROM branding_domains WHERE id = ?').get(id) as Row | undefined;
  return d ?? null;
}

export const locationResource: ResourceDef = {
  name: 'location',
  plural: 'locations',
  table: 'locations',
  scope: { kind: 'self' },
  apiId: { field: 'location_api_id', scopeColumn: 'parent_id' },
  defaultSort: 'name',
  methods: ['list', 'view', 'create', 'update'],
  // A location's name, keys and children are the managers' (its credentials route declares the same).
  allow: { list: ANY_USER, view: ANY_USER, create: MANAGERS, update: MANAGERS },
  fields: {
    id: idField,
    name: str(1, 64, { required: true }),
    parent_id: { type: 'string', min: 24, max: 36, required: true, update: false, ref: 'location' },
    tz: str(0, 24, { default: 'America/New_York', format: 'time-zone' }),
    branding_domain_url: str(1, 64, { required: true }),
    branding_domain_id: str(24, 36),
    branding_domain_title: str(1, 64, { virtual: true }),
    is_new_domain: { type: 'boolean', virtual: true },
    aba: str(9, 9, { format: 'digits' }),
    // The merchant's deposit account number: masking would silently change it.
    dda: str(3, 32, { keepsDigits: 'identifier' }),
    account_number: str(0, 32),
    address1: str(0, 32),
    address2: str(0, 32),
    city: str(0, 100),
    state: str(0, 100),
    zip_code: str(5, 10),
    country: { type: 'string', enum: ['USA', 'CAN'] },
    office_phone: phone,
    office_ext_phone: str(0, 10),
    fax: phone,
    contact_email_trx_receipt_default: bool(0),
    // A product transaction of this location: none exists before the location does.
    default_ach: str(24, 36, { create: false, keepsDigits: 'identifier' }),
    default_cc: str(24, 36, { create: false, keepsDigits: 'identifier' }),
    developer_company_id: { type: 'string', readOnly: true },
    email_reply_to: str(0, 60, { format: 'email' }),
    // Engine extension: where customers open this location's pay links and invoices (billing-shared.ts payPagesOrigin).
    pay_page_url: str(0, 128, { format: 'url' }),
    location_api_id: str(24, 36, { format: 'no-spaces' }),
    location_api_key: { type: 'string', readOnly: true },
    ticket_hash_key: { type: 'string', readOnly: true },
    location_c1: str(0, 128),
    location_c2: str(0, 128),
    location_c3: str(0, 128),
    receipt_logo: str(0, 256),
    recurring_notification_days_default: { type: 'integer', minValue: 0, maxValue: 365 },
    show_contact_files: bool(0),
    show_contact_notes: bool(0),
    created_user_id: systemUser,
    created_ts: tsField,
    modified_ts: tsField,
  },
  expands: {
    branding_domain: (ctx, row) => brandingDomainOf(ctx, row.branding_domain_id),
    created_user: createdUserExpand,
    developer_company: (ctx, row) => ctx.stmt('SELECT id, name, created_ts, modified_ts FROM developer_companies WHERE id = ?').get(row.developer_company_id) ?? null,
    product_transactions: productTransactionsExpand,
    product_recurring: () => null,
    product_file: () => null,
    parent: refExpand('location', 'parent_id'),
    terminal: terminalsExpand,
    terminals: terminalsExpand,
  },
  validate({ ctx, errs, mode, input, existing }) {
    const v = input.values;
    if (v.is_new_domain === 1 && typeof v.branding_domain_title !== 'string') errs.add('branding_domain_title', MERCHANT_MSG.DOMAIN_TITLE_REQUIRED);
    if (typeof v.branding_domain_id === 'string' && v.is_new_domain !== 1 && !brandingDomainOf(ctx, v.branding_domain_id)) errs.add('branding_domain_id', MSG.INVALID);
    for (const [field, method] of [['default_cc', 'cc'], ['default_ach', 'ach']] as const) {
      const id = v[field];
      if (typeof id !== 'string') continue;
      const pt = ctx.stmt('SELECT location_id, payment_method FROM product_transactions WHERE id = ?').get(id) as Row | undefined;
      if (mode === 'create' || !pt || pt.location_id !== existing?.id || pt.payment_method !== method) {
        errs.add(field, MERCHANT_MSG.DEFAULT_PT_WRONG_METHOD, { method });
      }
    }
  },
  beforeInsert({ ctx, input, auth }) {
    const v = input.values;
    v.location_api_key = newKeyUuid();
    v.ticket_hash_key = newKeyUuid();
    v.developer_company_id = auth.developerId;
    if (v.is_new_domain === 1) {
      const id = ctx.newId();
      const now = ctx.clock.now();
      ctx.stmt('INSERT INTO branding_domains (id, url, title, created_ts, modified_ts) VALUES (?, ?, ?, ?, ?)').run(id, v.branding_domain_url, v.branding_domain_title, now, now);
      v.branding_domain_id = id;
    }
  },
  afterInsert({ ctx }) {
    ctx.invalidateAuth();
  },
};

/** The body of PUT /credentials is checked against this narrower declaration. */
export const credentialsDef: ResourceDef = {
  ...locationResource,
  methods: [],
  validate: undefined,
  fields: {
    location_api_id: str(1, 36, { format: 'no-spaces' }),
    location_api_key: str(1, 36, { format: 'no-spaces', keepsDigits: 'identifier' }),
    ticket_hash_key: str(1, 36, { format: 'no-spaces', keepsDigits: 'identifier' }),
  },
};

export function registerLocationRoutes(app: FastifyInstance, ctx: EngineContext): void {
  // The location's keys (api id, api key, ticket hash key): the same hands as the location itself; identifiers (card-mask.ts).
  app.put('/v2/locations/:id/credentials', { config: { allow: locationResource.allow.update, keepsDigits: keepsDigitsOf(credentialsDef) } }, async (req) => {
    const existing = ctx.findVisible(locationResource, (req.params as { id: string }).id, req);
    const input = ctx.validateWrite(credentialsDef, req.body, 'update', req, existing);
    const row = ctx.db.transaction(() => {
      checkApiIdUnique(ctx, locationResource, input.values, existing);
      return ctx.update(locationResource, existing.id, input.values, req.auth);
    })();
    return { location: ctx.serialize(locationResource, row, req.auth, ctx.expandsOf(locationResource, req)) };
  });
}

/**
 * Contacts. POST with update_if_exists=1 (which then requires contact_api_id) updates
 * the contact with that contact_api_id in the location and answers 200; without it an
 * existing contact_api_id answers 422. GET by api id:
 * `/v2/contacts/{contact_api_id}?location_id=<location_id>&api_id=true`.
 */
import { MSG } from '../framework/errors';
import { checkApiIdUnique, findByApiId } from '../framework/records';
import type { ResourceDef } from '../framework/resource';
import { bool, createdUserExpand, idField, locationRef, phone, refExpand, str, systemUser, tsField } from './field-kit';
import { MANAGERS, SELLERS } from '../framework/permissions';

export const contactResource: ResourceDef = {
  name: 'contact',
  plural: 'contacts',
  table: 'contacts',
  scope: { kind: 'column', column: 'location_id' },
  apiId: { field: 'contact_api_id', scopeColumn: 'location_id' },
  defaultSort: '-created_ts',
  methods: ['list', 'view', 'create', 'update', 'delete'],
  // Customers are the sellers' to read and keep; an installer needs none of them. Deleting one is a manager's.
  allow: { list: SELLERS, view: SELLERS, create: SELLERS, update: SELLERS, delete: MANAGERS },
  fields: {
    id: idField,
    location_id: locationRef,
    last_name: str(1, 64, { required: true }),
    first_name: str(0, 64),
    account_number: str(0, 32),
    address: str(0, 255),
    city: str(0, 100),
    state: str(0, 24),
    zip: str(5, 10, { pattern: /^\d{5}(-?\d{4})?$/, example: '32606' }),
    company_name: str(0, 64),
    contact_api_id: str(0, 36, { format: 'no-spaces' }),
    contact_balance: str(0, 12),
    contact_c1: str(0, 128),
    contact_c2: str(0, 128),
    contact_c3: str(0, 128),
    date_of_birth: { type: 'date' },
    email: str(5, 64, { format: 'email' }),
    email_trx_receipt: bool(0),
    header_message: str(0, 250),
    header_message_type: { type: 'integer', minValue: 0, maxValue: 4 },
    home_phone: phone,
    cell_phone: phone,
    office_phone: phone,
    office_ext_phone: str(0, 10),
    parent_id: { type: 'string', min: 24, max: 36, ref: 'contact' },
    update_if_exists: { type: 'integer', enum: [0, 1], virtual: true }, // POST only; accepted and ignored on PUT
    created_user_id: systemUser,
    created_ts: tsField,
    modified_ts: tsField,
  },
  expands: {
    created_user: createdUserExpand,
    user: createdUserExpand,
    location: refExpand('location', 'location_id'),
    // The contact's recurrings (linked through their account vaults); [] in an engine without the recurring module.
    recurrings: (ctx, row, auth) => {
      if (!ctx.resources.has('recurring')) return [];
      const def = ctx.resource('recurring');
      const rows = ctx.stmt('SELECT * FROM recurrings WHERE contact_id = ? ORDER BY created_ts, rowid').all(row.id) as Record<string, unknown>[];
      return rows.filter((r) => auth.locationSet.has(String(r.location_id))).map((r) => ctx.serialize(def, r, auth));
    },
  },
  validate({ errs, mode, input }) {
    if (mode === 'create' && input.values.update_if_exists === 1 && typeof input.values.contact_api_id !== 'string') errs.add('contact_api_id', MSG.BLANK);
  },
  createOverride({ ctx, auth, input }) {
    const v = input.values;
    if (v.update_if_exists !== 1 || typeof v.contact_api_id !== 'string') return undefined;
    const existing = findByApiId(ctx, contactResource, v.contact_api_id, String(v.location_id), auth);
    if (!existing) return undefined;
    // Only what the caller sent: create defaults must not overwrite stored values.
    const changes = Object.fromEntries(Object.entries(v).filter(([k]) => k in input.raw && k !== 'location_id'));
    checkApiIdUnique(ctx, contactResource, changes, existing);
    return { status: 200, row: ctx.update(contactResource, existing.id, changes, auth) };
  },
};

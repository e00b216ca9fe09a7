/**
 * Location infos: a read-only aggregate of a location with its product transactions
 * (and their settings), terminals, tags and branding domain. Lists under
 * `locationinfos`, by default only the locations the user is a direct member of
 * (`relationship=direct`, the documented query); `relationship=all` includes their
 * descendants; any other value is a 422 naming it. Filters: the location columns below, plus
 * `location_api_id` (not part of the answer).
 */
import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../framework/context';
import type { StoredFieldDef, ResourceDef, Row } from '../framework/resource';
import { fieldError } from '../framework/errors';
import { brandingDomainOf } from './locations';
import { MERCHANT_MSG } from './messages';
import { ANY_USER } from '../framework/permissions';

const s: StoredFieldDef = { type: 'string', readOnly: true };
const b: StoredFieldDef = { type: 'boolean', readOnly: true };

export const locationInfoResource: ResourceDef = {
  name: 'locationinfo',
  plural: 'locationinfos',
  table: 'locations',
  scope: { kind: 'self' },
  defaultSort: 'name',
  methods: ['view'],
  // `list` is the hand-written GET /v2/locationinfos (it reads this entry).
  allow: { list: ANY_USER, view: ANY_USER },
  fields: {
    id: s,
    name: s,
    address1: s,
    address2: s,
    city: s,
    state: s,
    zip_code: { ...s, outputName: 'zip' },
    office_phone: s,
    office_ext_phone: s,
    fax: s,
    tz: s,
    branding_domain_url: s,
    default_cc: s,
    default_ach: s,
    contact_email_trx_receipt_default: b,
    show_contact_notes: b,
    show_contact_files: b,
    parent_id: s,
    location_api_id: { ...s, filter: 'exact' },
    created_ts: { type: 'integer', readOnly: true },
  },
  decorate(ctx, row, out, auth) {
    const pt = ctx.resource('product_transaction');
    out.product_transactions = (ctx.stmt('SELECT * FROM product_transactions WHERE location_id = ? ORDER BY created_ts, rowid').all(row.id) as Row[]).map((r) => ctx.serialize(pt, r, auth));
    out.product_file = null;
    out.product_accountvault = null;
    out.product_recurring = null;
    out.branding_domain = brandingDomainOf(ctx, row.branding_domain_id);
    const term = ctx.resource('terminal');
    out.terminals = (ctx.stmt('SELECT id, local_ip_address, port, title FROM terminals WHERE location_id = ? ORDER BY created_ts, rowid').all(row.id) as Row[]).map((t) => ({
      ...t,
      _links: { self: { href: ctx.href(term, t.id) } },
    }));
    const tag = ctx.resource('tag');
    out.tags = (ctx.stmt('SELECT * FROM tags WHERE location_id = ? ORDER BY title, rowid').all(row.id) as Row[]).map((t) => ctx.serialize(tag, t, auth));
    delete out.parent_id;
    delete out.location_api_id;
    delete out.created_ts;
    out._links = { self: { href: ctx.href(locationInfoResource, row.id) }, location: { href: ctx.href(ctx.resource('location'), row.id) } };
  },
};

export function registerLocationInfoRoutes(app: FastifyInstance, ctx: EngineContext): void {
  app.get('/v2/locationinfos', { config: { allow: locationInfoResource.allow.list } }, async (req) => {
    const q = req.query as Record<string, unknown>;
    const direct = q.relationship === undefined || q.relationship === '' || q.relationship === 'direct';
    if (!direct && q.relationship !== 'all') throw fieldError('relationship', MERCHANT_MSG.RELATIONSHIP_INVALID);
    return ctx.list(locationInfoResource, req, direct ? { where: 'id IN (SELECT value FROM json_each(?))', params: [JSON.stringify(req.auth.directLocationIds)] } : {}).body;
  });
}

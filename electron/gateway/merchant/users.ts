/**
 * Users: generic CRUD plus /me and /{id}/generateuserapikey.
 *
 * - Visible users: those sharing a location with the caller (memberships + descendants).
 * - API keys and passwords are stored hashed; a key is returned only when it is set
 *   (create with a custom key) or generated.
 * - Password rules: changing your own password needs old_password; a password set by
 *   someone else (including on create) is one-time: requires_new_password becomes "1".
 * - Who may manage whom: `allow` below (route level) and user-permissions.ts (the row
 *   rule: only users of a type below your own). Delete answers 409 for yourself.
 */
import type { FastifyInstance } from 'fastify';
import { hashApiKey } from '../framework/auth';
import type { EngineContext } from '../framework/context';
import { ApiError, MSG } from '../framework/errors';
import { newSecret } from '../framework/ids';
import type { StoredFieldDef, ResourceDef, Row } from '../framework/resource';
import { isPlainObject } from '../framework/validate';
import { bool, createdUserExpand, idField, phone, refExpand, str, systemUser, tsField } from './field-kit';
import { MERCHANT_MSG } from './messages';
import { assertMayCreate, assertMayManage, assertMayUpdate, seesSecretsOf } from './user-permissions';
import { PASSWORD_MAX, PASSWORD_MIN, hashPassword, passwordRule, verifyPassword } from './passwords';
import { ADMIN_USER_TYPE, ANY_USER, MANAGERS, USER_TYPE_IDS } from '../framework/permissions';

export { ADMIN_USER_TYPE };

export const UI_PREFS_DEFAULTS = {
  entry_page: 'dashboard',
  page_size: 15,
  report_export_type: 'csv',
  process_method: 'virtual_terminal',
  default_terminal: null as string | null,
};

const uiPrefs: StoredFieldDef = {
  type: 'json',
  example: { ...UI_PREFS_DEFAULTS },
  jsonSchema: {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      Object.keys(UI_PREFS_DEFAULTS).map((k) => [k, k === 'page_size' ? { type: 'integer', minimum: 1, maximum: 5000 } : { type: ['string', 'null'], maxLength: 36 }]),
    ),
  },
  json(value, errs, field) {
    if (!isPlainObject(value)) {
      errs.add(field, MSG.NOT_OBJECT);
      return undefined;
    }
    const out: Record<string, unknown> = { ...UI_PREFS_DEFAULTS };
    for (const [k, v] of Object.entries(value)) {
      if (!Object.hasOwn(UI_PREFS_DEFAULTS, k)) errs.add(field, MERCHANT_MSG.UI_PREFS_UNKNOWN, { key: k.slice(0, 64) });
      else if (k === 'page_size') {
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 5000) errs.add(field, MSG.INVALID);
        else out[k] = v;
      } else if (v !== null && (typeof v !== 'string' || v.length > 36)) errs.add(field, MSG.INVALID);
      else out[k] = v;
    }
    return out;
  },
};

export const userResource: ResourceDef = {
  name: 'user',
  plural: 'users',
  table: 'users',
  scope: { kind: 'sql', where: 'id IN (SELECT user_id FROM user_locations WHERE location_id IN :locations)' },
  defaultSort: 'username',
  methods: ['list', 'view', 'create', 'update', 'delete'],
  // Everyone manages themselves (update); other users only from a higher type: the row rule in user-permissions.ts.
  allow: { list: ANY_USER, view: ANY_USER, create: MANAGERS, update: ANY_USER, delete: MANAGERS },
  fields: {
    id: idField,
    domain_id: { type: 'string', readOnly: true },
    contact_id: { type: 'string', readOnly: true },
    // The docs bound usernames by length only (1–64); spaces and e-mail addresses are fine.
    // Typed at sign-in exactly as stored: masking would lock its user out (card-mask.ts).
    username: str(1, 64, { required: true, keepsDigits: 'identifier' }),
    email: str(5, 128, { required: true, format: 'email' }),
    // One of the declared types (framework/permissions.ts); anything else is a 422.
    user_type_id: { type: 'integer', required: true, enum: USER_TYPE_IDS },
    locale: str(0, 8, { default: 'en-US' }),
    status_id: { type: 'integer', enum: [0, 1], default: 1 },
    tz: str(0, 30, { default: 'America/New_York', format: 'time-zone' }),
    login_attempts: { type: 'integer', readOnly: true },
    current_login_ip: { type: 'string', readOnly: true },
    current_login: { type: 'string', readOnly: true },
    last_login_ts: tsField,
    requires_new_password: { type: 'string', readOnly: true },
    created_ts: tsField,
    modified_ts: tsField,
    primary_location_id: { type: 'string', min: 24, max: 36, required: true, ref: 'location' },
    branding_domain_url: { type: 'string', readOnly: true },
    branding_domain_id: { type: 'string', min: 24, max: 36, virtual: true },
    created_user_id: systemUser,
    terms_condition_id: str(0, 36),
    terms_accepted_ts: { type: 'integer', minValue: 0 },
    terms_agree_ip: str(0, 64),
    ui_prefs: uiPrefs,
    // Kept when supplied on create (16–64 characters); generated otherwise.
    user_hash_key: str(16, 64, { update: false, format: 'no-spaces', keepsDigits: 'identifier' }),
    first_name: str(0, 64),
    last_name: str(1, 64, { required: true }),
    address: str(0, 64),
    city: str(0, 100),
    state: str(0, 100),
    zip: str(0, 10),
    account_number: str(0, 32),
    date_of_birth: { type: 'date' },
    email_trx_receipt: bool(0),
    company_name: str(0, 64),
    home_phone: phone,
    cell_phone: phone,
    office_phone: phone,
    office_ext_phone: str(0, 10),
    // Only hashed, never returned: consumed as typed (card-mask.ts). The api key is returned once when set, so it is an identifier.
    password: str(PASSWORD_MIN, PASSWORD_MAX, { virtual: true, writeOnly: true, check: passwordRule, keepsDigits: 'consumed' }),
    old_password: str(1, PASSWORD_MAX, { virtual: true, writeOnly: true, keepsDigits: 'consumed' }),
    // Hashed, never stored or returned: any digits are fine (a client's random hex key may hold a card-number-like run).
    user_api_key: str(16, 64, { virtual: true, writeOnly: true, format: 'no-spaces', update: false, keepsDigits: 'consumed' }),
    password_hash: { type: 'string', readOnly: true, writeOnly: true, filter: false, sortable: false },
    user_api_key_hash: { type: 'string', readOnly: true, writeOnly: true, filter: false, sortable: false },
  },
  expands: { created_user: createdUserExpand, primary_location: refExpand('location', 'primary_location_id') },
  decorate(ctx, row, out, auth) {
    if (!seesSecretsOf(auth, row) && !(typeof row.user_api_key === 'string')) delete out.user_hash_key;
    // The documented answer carries `status` next to status_id: true while the user is active.
    out.status = row.status_id === 1;
    out.current_date_time = new Date(ctx.clock.now() * 1000).toISOString().slice(0, 19).replace('T', ' ');
    if (out.ui_prefs === null) out.ui_prefs = { ...UI_PREFS_DEFAULTS };
    // Only present right after the key was set or generated (see afterInsert / generateuserapikey).
    if (typeof row.user_api_key === 'string') out.user_api_key = row.user_api_key;
  },
  validate({ ctx, errs, mode, input, existing, auth }) {
    const v = input.values;
    // The row rule (user-permissions.ts): only users of a type below the caller's own.
    if (mode === 'update' && existing) assertMayUpdate(ctx, auth, existing, v);
    if (mode === 'create' && typeof v.user_type_id === 'number') assertMayCreate(auth, v.user_type_id);
    if (typeof v.username === 'string') {
      const clash = ctx.stmt('SELECT id FROM users WHERE username = ? AND id IS NOT ?').get(v.username, existing?.id ?? null);
      if (clash) errs.add('username', MSG.TAKEN, { value: v.username });
    }
    if (typeof v.branding_domain_id === 'string' && !ctx.stmt('SELECT 1 FROM branding_domains WHERE id = ?').get(v.branding_domain_id)) {
      errs.add('branding_domain_id', MSG.INVALID);
    }
    if (mode === 'update' && typeof v.password === 'string' && existing?.id === auth.userId) {
      if (typeof v.old_password !== 'string') errs.add('old_password', MSG.BLANK);
      else if (!verifyPassword(v.old_password, existing.password_hash)) errs.add('old_password', MERCHANT_MSG.OLD_PASSWORD_WRONG);
    }
  },
  beforeInsert({ input }) {
    const v = input.values;
    if (typeof v.password === 'string') {
      v.password_hash = hashPassword(v.password);
      v.requires_new_password = '1';
    }
    if (typeof v.user_api_key === 'string') v.user_api_key_hash = hashApiKey(v.user_api_key);
    if (typeof v.branding_domain_id === 'string') v.domain_id = v.branding_domain_id;
    if (typeof v.user_hash_key !== 'string') v.user_hash_key = newSecret(16);
    v.ui_prefs ??= { ...UI_PREFS_DEFAULTS };
  },
  afterInsert({ ctx, input, row }) {
    ctx.stmt('INSERT OR IGNORE INTO user_locations (user_id, location_id) VALUES (?, ?)').run(row.id, row.primary_location_id);
    if (typeof input.values.user_api_key === 'string') row.user_api_key = input.values.user_api_key;
    ctx.invalidateAuth();
  },
  beforeUpdate({ input, existing, auth }) {
    const v = input.values;
    if (typeof v.password === 'string') {
      v.password_hash = hashPassword(v.password);
      v.requires_new_password = existing.id === auth.userId ? '0' : '1';
    }
    if (typeof v.branding_domain_id === 'string') v.domain_id = v.branding_domain_id;
  },
  afterUpdate({ ctx, row }) {
    ctx.stmt('INSERT OR IGNORE INTO user_locations (user_id, location_id) VALUES (?, ?)').run(row.id, row.primary_location_id);
    ctx.invalidateAuth();
  },
  beforeDelete({ ctx, auth, existing }) {
    if (existing.id === auth.userId) throw new ApiError(409, { general: [MERCHANT_MSG.CANNOT_DELETE_SELF] });
    // Only a user of a higher type deletes one, so no route deletes an admin (nor the last one).
    assertMayManage(ctx, auth, existing);
  },
  afterDelete({ ctx }) {
    ctx.invalidateAuth();
  },
};

/** Sets a fresh API key on `userId` and returns it (stored hashed). */
export function setUserApiKey(ctx: EngineContext, userId: unknown, key = newSecret(16)): string {
  ctx.stmt('UPDATE users SET user_api_key_hash = ?, modified_ts = ? WHERE id = ?').run(hashApiKey(key), ctx.clock.now(), userId);
  ctx.invalidateAuth();
  return key;
}

export function registerUserRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const def = userResource;
  // Self-service: every user type reads itself; re-keying another user follows the row rule.
  app.get('/v2/users/me', { config: { allow: ANY_USER } }, async (req) => {
    const row = ctx.getById(def, req.auth.userId) as Row;
    return { user: ctx.serialize(def, row, req.auth, ctx.expandsOf(def, req)) };
  });
  app.post('/v2/users/:id/generateuserapikey', { config: { allow: ANY_USER } }, async (req) => {
    const existing = ctx.findVisible(def, (req.params as { id: string }).id, req);
    assertMayManage(ctx, req.auth, existing);
    const key = setUserApiKey(ctx, existing.id);
    const row = { ...(ctx.getById(def, existing.id) as Row), user_api_key: key };
    return { user: ctx.serialize(def, row, req.auth) };
  });
}

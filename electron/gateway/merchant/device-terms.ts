/**
 * Device terms: terms and conditions shown on a terminal, optionally with a signature.
 *
 * - The terminal must belong to the location; require_signature on a terminal whose
 *   sig_capture_enable is off answers 422 naming the device as not signature capable.
 * - A terminal with an address is prompted for real (router/router-module.ts sets the
 *   answer in `termsAnswers`). Without one, the engine plays the customer: the prompt is accepted (reason_code_id 1000, with a
 *   signature object when one was required) unless terms_conditions contains the
 *   simulator trigger `#decline`, which records a declined prompt (reason_code_id 1500).
 * - A POST whose device_terms_api_id matches a declined record of the location updates
 *   that record and answers 200, so the prompt can be tried again; matching an accepted
 *   one answers 422 (taken).
 * - The api id is sent as `device_terms_api_id` and answered as `device_term_api_id`.
 */
import type { FastifyRequest } from 'fastify';
import type { EngineContext } from '../framework/context';
import { fmt } from '../framework/errors';
import { findByApiId } from '../framework/records';
import type { ResourceDef, Row } from '../framework/resource';
import { createdUserExpand, idField, locationRef, refExpand, str, systemUser, tsField } from './field-kit';
import { MERCHANT_MSG } from './messages';
import { ANY_USER } from '../framework/permissions';

export const DEVICE_TERMS_ACCEPTED = 1000;
export const DEVICE_TERMS_DECLINED = 1500;
export const DECLINE_TRIGGER = '#decline';
const REASONS: Record<number, string> = { [DEVICE_TERMS_ACCEPTED]: 'Approved', [DEVICE_TERMS_DECLINED]: 'Declined by customer' };
/** A 1×1 transparent PNG: the simulated customer's signature. */
const SIGNATURE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/**
 * The cardholder's answer from a real (or simulated) terminal, set by the router module
 * before the record is made (it prompts on terminals that have an address).
 */
export const termsAnswers = new WeakMap<FastifyRequest, { accepted: boolean; signature: string | null }>();

function outcome(ctx: EngineContext, id: unknown, v: Row, href: string, req: FastifyRequest): Row {
  const answer = termsAnswers.get(req);
  const declined = answer ? !answer.accepted : typeof v.terms_conditions === 'string' && v.terms_conditions.includes(DECLINE_TRIGGER);
  const image = answer ? answer.signature : SIGNATURE_PNG;
  const now = ctx.clock.now();
  return {
    reason_code_id: declined ? DEVICE_TERMS_DECLINED : DEVICE_TERMS_ACCEPTED,
    signature:
      !declined && v.require_signature === 1 && image
        ? { id: ctx.newId(), resource_id: id, resource: 'deviceterm', signature: image, created_ts: now, modified_ts: now, _links: { self: { href } } }
        : null,
  };
}

export const deviceTermResource: ResourceDef = {
  name: 'deviceterm',
  plural: 'deviceterms',
  table: 'deviceterms',
  scope: { kind: 'column', column: 'location_id' },
  apiId: { field: 'device_terms_api_id', scopeColumn: 'location_id' },
  defaultSort: '-created_ts',
  methods: ['list', 'view', 'create'],
  // Terms shown on a terminal move no money: the installer tests them, the counter shows them.
  allow: { list: ANY_USER, view: ANY_USER, create: ANY_USER },
  fields: {
    id: idField,
    location_id: locationRef,
    terminal_id: str(24, 36, { required: true }),
    require_signature: { type: 'boolean', required: true },
    terms_conditions: str(1, 4096, { required: true }),
    device_terms_api_id: str(1, 36, { format: 'no-spaces', outputName: 'device_term_api_id' }),
    reason_code_id: { type: 'integer', readOnly: true },
    created_ts: tsField,
    modified_ts: tsField,
    created_user_id: systemUser,
    signature: { type: 'json', readOnly: true },
  },
  expands: {
    created_user: createdUserExpand,
    location: refExpand('location', 'location_id'),
    terminal: refExpand('terminal', 'terminal_id'),
    reason_code: (_ctx, row) => (typeof row.reason_code_id === 'number' ? { id: row.reason_code_id, code: row.reason_code_id, description: REASONS[row.reason_code_id] ?? null } : null),
    signature: (_ctx, row) => (typeof row.signature === 'string' ? (JSON.parse(row.signature) as unknown) : null),
  },
  validate({ ctx, errs, input }) {
    const v = input.values;
    const terminal = ctx.stmt('SELECT * FROM terminals WHERE id = ?').get(v.terminal_id) as Row | undefined;
    if (!terminal || terminal.location_id !== v.location_id) {
      errs.add('terminal_id', MERCHANT_MSG.TERMINAL_NOT_IN_LOCATION);
      return;
    }
    if (v.require_signature === 1 && terminal.sig_capture_enable !== 1) {
      const device = String(terminal.title || terminal.serial_number);
      (errs.errors.terminal_id ??= []).push(fmt(MERCHANT_MSG.DEVICE_NOT_SIGNATURE_CAPABLE, { device }));
    }
  },
  createOverride({ ctx, auth, input, req }) {
    const v = input.values;
    if (typeof v.device_terms_api_id !== 'string') return undefined;
    const existing = findByApiId(ctx, deviceTermResource, v.device_terms_api_id, String(v.location_id), auth);
    if (!existing || existing.reason_code_id === DEVICE_TERMS_ACCEPTED) return undefined;
    const href = ctx.href(deviceTermResource, existing.id);
    const row = ctx.update(deviceTermResource, existing.id, { ...v, ...outcome(ctx, existing.id, v, href, req) }, auth);
    return { status: 200, row };
  },
  beforeInsert({ ctx, input, req }) {
    const v = input.values;
    v.id = ctx.newId();
    Object.assign(v, outcome(ctx, v.id, v, ctx.href(deviceTermResource, v.id), req));
  },
};

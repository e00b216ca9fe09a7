/**
 * The recurring's hand-written actions (state machine of the interface):
 *   active  → placeOnHold → on hold
 *   on hold → activate    → active (the schedule resumes at its first date on or after today;
 *             positions that fell while on hold are skipped for an ongoing recurring and
 *             deferred — appended at the end — for an installment, so its count still holds)
 *   active  → skipPayment?skip_count=n  → next_run_date past n payments; end_date unchanged;
 *             an installment collects n fewer
 *   active  → deferPayment?defer_count=n (installments only) → n payments moved to the end;
 *             end_date n intervals later; the full count is still collected
 * Anything else answers 422 with the reason. n is 1–99 (default 1).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EngineContext } from '../framework/context';
import { ApiError, fmt } from '../framework/errors';
import type { Row } from '../framework/resource';
import { REC_MSG } from './recurring-messages';
import { derivedFields, recurringResource, scheduleOf } from './recurring-resource';
import { locationToday } from './location-today';
import { dateAt, isPastEnd } from './recurring-schedule';

function countParam(req: FastifyRequest, name: string): number {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const raw = q[name];
  if (raw === undefined || raw === '') return 1;
  const n = typeof raw === 'string' && /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 99) throw new ApiError(422, { [name]: [REC_MSG.COUNT_INVALID] });
  return n;
}

function requireActive(row: Row, template: string = REC_MSG.NOT_ACTIVE): void {
  if (row.status !== 'active') throw new ApiError(422, { status: [fmt(template, { status: String(row.status) })] });
}

type Change = (row: Row, ctx: EngineContext) => Row;

export const skip = (n: number): Change => (row) => {
  requireActive(row);
  const s = scheduleOf(row);
  s.next_index += n;
  return { next_index: s.next_index, skipped_count: Number(row.skipped_count) + (row.recurring_type_id === 'i' ? n : 0), ...derivedFields(s, 'active') };
};

export const defer = (n: number): Change => (row) => {
  if (row.recurring_type_id !== 'i') throw new ApiError(422, { recurring_type_id: [REC_MSG.DEFER_ONGOING] });
  requireActive(row);
  const s = scheduleOf(row);
  s.next_index += n;
  s.deferred_count += n;
  return { next_index: s.next_index, deferred_count: s.deferred_count, ...derivedFields(s, 'active') };
};

export const placeOnHold: Change = (row) => {
  requireActive(row, REC_MSG.HOLD_NOT_ACTIVE);
  return { status: 'on hold' };
};

export const activate: Change = (row, ctx) => {
  if (row.status !== 'on hold') throw new ApiError(422, { status: [fmt(REC_MSG.ACTIVATE_NOT_ON_HOLD, { status: String(row.status) })] });
  const today = locationToday(ctx, String(row.location_id));
  const s = scheduleOf(row);
  let k = s.next_index;
  while (dateAt(s, k) < today && !isPastEnd(s, k)) k++;
  const missed = k - s.next_index;
  s.next_index = k;
  if (row.recurring_type_id === 'i') s.deferred_count += missed;
  return { next_index: k, deferred_count: s.deferred_count, ...derivedFields(s, 'active') };
};

/** Describes the four actions' routes; each answers the changed recurring. */
export function registerRecurringActions(app: FastifyInstance, ctx: EngineContext): void {
  const def = recurringResource;
  const act = (req: FastifyRequest, change: Change) => {
    const { id } = req.params as { id: string };
    const found = ctx.findVisible(def, id, req);
    const row = ctx.db.transaction(() => {
      const cur = ctx.getById(def, found.id) as Row;
      return ctx.update(def, cur.id, change(cur, ctx), req.auth);
    })();
    return { recurring: ctx.serialize(def, row, req.auth, ctx.expandsOf(def, req)) };
  };
  // Each action changes the schedule: the same hands as its update.
  const opts = { config: { allow: def.allow.update } };
  app.post('/v2/recurrings/:id/placeOnHold', opts, async (req) => act(req, placeOnHold));
  app.post('/v2/recurrings/:id/activate', opts, async (req) => act(req, activate));
  app.post('/v2/recurrings/:id/skipPayment', opts, async (req) => act(req, skip(countParam(req, 'skip_count'))));
  app.post('/v2/recurrings/:id/deferPayment', opts, async (req) => act(req, defer(countParam(req, 'defer_count'))));
}

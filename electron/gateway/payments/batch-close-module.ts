/**
 * The daily batch close as an engine module over the payments runtime: its due work
 * (batch-auto-close.ts) and the one write that sets the time (engine extension under
 * /v2, same credentials; product transactions have no other route in the interface):
 *
 *   PUT /v2/producttransactions/{id} {"producttransaction": {"batch_close_time": "22:30"}}
 *     → {"producttransaction": {...}} with the new batch_close_time (HH:MM, location time).
 *
 * Only batch_close_time may be sent (anything else is a 422, never dropped); changing it
 * needs the settle permission (managers and admins). An open batch keeps the close moment
 * already passed when it opened, so a new time applies from its next occurrence.
 */
import type { EngineContext, EngineModule } from '../framework/context';
import { ApiError, MSG, fmt, notFound } from '../framework/errors';
import { MANAGERS } from '../framework/permissions';
import { batchAutoCloseWork } from './batch-auto-close';
import { batchCloseOpenApi } from './batch-close-openapi';
import type { PaymentsRuntime } from './payments-module';

export const BATCH_CLOSE_MSG = {
  TIME_INVALID: 'Batch Close Time must be a time of day as HH:MM (00:00 to 23:59).',
  ONLY_TIME: 'Only batch_close_time can be changed on a product transaction.',
  BODY_SHAPE: 'Send {"producttransaction": {"batch_close_time": "23:59"}}.',
} as const;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export function createBatchCloseModule(payments: { runtime(): PaymentsRuntime; connection(): EngineContext }): EngineModule {
  return {
    name: 'batch-close',
    dueWork: () => [batchAutoCloseWork(payments.connection(), () => payments.runtime().batches, () => payments.runtime().writer)],
    routes(app, ctx) {
      const def = ctx.resource('product_transaction');
      // When the batch settles by itself: the settle permission's (managers').
      app.put<{ Params: { id: string } }>('/v2/producttransactions/:id', { config: { allow: MANAGERS } }, async (req) => {
        const row = ctx.getVisible(def, req.params.id, req.auth);
        if (!row) throw notFound();
        const body = req.body as { producttransaction?: unknown } | undefined;
        const pt = body && typeof body === 'object' ? body.producttransaction : undefined;
        if (!pt || typeof pt !== 'object' || Array.isArray(pt)) throw new ApiError(422, { producttransaction: [BATCH_CLOSE_MSG.BODY_SHAPE] });
        const fields = pt as Record<string, unknown>;
        const other = Object.keys(fields).filter((k) => k !== 'batch_close_time');
        if (other.length > 0) throw new ApiError(422, Object.fromEntries(other.map((k) => [k, [BATCH_CLOSE_MSG.ONLY_TIME]])));
        const time = fields.batch_close_time;
        if (typeof time !== 'string' || !HHMM.test(time)) throw new ApiError(422, { batch_close_time: [time === undefined || time === null || time === '' ? fmt(MSG.BLANK, { attribute: 'Batch Close Time' }) : BATCH_CLOSE_MSG.TIME_INVALID] });
        const updated = ctx.update(def, row.id, { batch_close_time: time });
        return { producttransaction: ctx.serialize(def, updated, req.auth) };
      });
    },
    openapi: () => batchCloseOpenApi(),
  };
}

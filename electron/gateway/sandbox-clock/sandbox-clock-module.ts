/**
 * The sandbox clock (an engine extension outside /v2, same credentials): each location
 * has its own persisted offset from the engine clock, so an integrator can move one
 * location's time forward and watch schedules fall due, the way Stripe's test clocks do.
 *
 *   GET  /sandbox/clock?location_id=L                    → {"clock": {location_id, now, offset_seconds}}
 *   POST /sandbox/clock/advance {"clock": {location_id, seconds}} → runs every module's due
 *        work for that location, then answers with the new clock.
 *
 * Only in the embedded/sandbox engine: with `production: true` the routes are not
 * registered and answer 404 like any unknown path. Time only moves forward (offsets ≥ 0):
 * work already done at a later moment cannot be undone.
 */
import type { FastifyRequest } from 'fastify';
import type { EngineContext, EngineModule } from '../framework/context';
import { ApiError } from '../framework/errors';
import { ADMINS } from '../framework/permissions';
import { SANDBOX_CLOCK_MIGRATIONS } from './sandbox-clock-migrations';
import { sandboxClockOpenApi } from './sandbox-clock-openapi';

export const CLOCK_MSG = {
  LOCATION_REQUIRED: 'Location ID cannot be blank.',
  LOCATION_UNKNOWN: 'Location ID is not a location you can use.',
  SECONDS_INVALID: 'Seconds must be a whole number from 1 to {max}.',
  BODY_SHAPE: 'Send the clock as {"clock": {"location_id": "...", "seconds": 86400}}.',
} as const;

/** Ten years: far enough for any schedule, small enough to stay a safe integer sum. */
export const MAX_ADVANCE_SECONDS = 10 * 366 * 86_400;

function offsetOf(ctx: EngineContext, locationId: string): number {
  const row = ctx.stmt('SELECT offset_seconds FROM sandbox_clock_offsets WHERE location_id = ?').get(locationId) as { offset_seconds: number } | undefined;
  return row?.offset_seconds ?? 0;
}

function usableLocation(req: FastifyRequest, value: unknown): string {
  if (value === undefined || value === null || value === '') throw new ApiError(422, { location_id: [CLOCK_MSG.LOCATION_REQUIRED] });
  const id = String(value);
  if (!req.auth.locationSet.has(id)) throw new ApiError(422, { location_id: [CLOCK_MSG.LOCATION_UNKNOWN] });
  return id;
}

function clockBody(ctx: EngineContext, locationId: string) {
  return { clock: { location_id: locationId, now: ctx.locationNow(locationId), offset_seconds: offsetOf(ctx, locationId) } };
}

export const sandboxClockModule: EngineModule = {
  name: 'sandbox-clock',
  migrations: SANDBOX_CLOCK_MIGRATIONS,
  init(ctx) {
    // A method reading through `this.stmt`: a module with its own connection (payments
    // derives its context with Object.create) reads the offset on that connection.
    ctx.locationNow = function (this: EngineContext, locationId: string) {
      return this.clock.now() + offsetOf(this, locationId);
    };
  },
  routes(app, ctx) {
    if (ctx.options.production) return;
    // Moving time runs every schedule, charge and auto-settle that falls due: admins only.
    const admins = { config: { allow: ADMINS } };
    app.get('/sandbox/clock', admins, async (req) => {
      const q = req.query as Record<string, unknown>;
      return clockBody(ctx, usableLocation(req, q.location_id));
    });
    app.post('/sandbox/clock/advance', admins, async (req) => {
      const body = req.body as { clock?: unknown } | undefined;
      const clock = body && typeof body === 'object' ? body.clock : undefined;
      if (!clock || typeof clock !== 'object' || Array.isArray(clock)) throw new ApiError(422, { clock: [CLOCK_MSG.BODY_SHAPE] });
      const c = clock as Record<string, unknown>;
      const locationId = usableLocation(req, c.location_id);
      const seconds = typeof c.seconds === 'string' && /^\d+$/.test(c.seconds) ? Number(c.seconds) : c.seconds;
      if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1 || seconds > MAX_ADVANCE_SECONDS) {
        throw new ApiError(422, { seconds: [CLOCK_MSG.SECONDS_INVALID.replace('{max}', String(MAX_ADVANCE_SECONDS))] });
      }
      ctx
        .stmt('INSERT INTO sandbox_clock_offsets (location_id, offset_seconds) VALUES (?, ?) ON CONFLICT(location_id) DO UPDATE SET offset_seconds = offset_seconds + excluded.offset_seconds')
        .run(locationId, seconds);
      await ctx.runDueWork(locationId);
      return clockBody(ctx, locationId);
    });
  },
  // A production engine has no sandbox routes, so its document has none either.
  openapi: (ctx) => (ctx.options.production ? { paths: {} } : sandboxClockOpenApi()),
};

/** A location's calendar date, for recurrings, invoices and pay pages: its time zone, its sandbox clock. */
import type { EngineContext } from '../framework/context';
import { localDate } from '../../common/run-dates';

/** The calendar date now (or at `now`, Unix seconds of the location's clock) at a location: its tz, its sandbox clock. */
export function locationToday(ctx: EngineContext, locationId: string, now = ctx.locationNow(locationId)): string {
  const row = ctx.stmt('SELECT tz FROM locations WHERE id = ?').get(locationId) as { tz: string | null } | undefined;
  return localDate(now, row?.tz);
}

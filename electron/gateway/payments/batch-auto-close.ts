/**
 * The daily automatic batch close: every open batch settles by itself once a day at its
 * product transaction's batch_close_time (HH:MM, default 23:59) in its location's time
 * zone, besides the manual settle. It is due work (framework/due-work.ts), so the
 * scheduler runs it and the sandbox clock's advance drives it in tests.
 *
 * For each open batch the latest close moment at or before the location's now is
 * computed; a batch opened before that moment and not yet tried at it is settled (the
 * same BatchService.settle as the manual action, user null, changelog action
 * `auto_close`). `auto_close_ts` starts as the moment the batch opened (location time)
 * and then records the close moment tried, so a batch whose settle fails (the sandbox's
 * 6.30) is tried again at the next day's close, not in a loop, and a run repeated after a
 * crash does nothing twice. Both are absolute instants, so a later change of the
 * location's tz or of the close time never settles a batch that opened after the new
 * zone's last close (storing "the last close before opening" instead did: a fresh batch
 * settled at once when the zone moved west).
 *
 * Simplification: on a daylight-saving change day the close moment is computed with the
 * UTC offset at the location's current moment (it may be an hour off that one day).
 */
import type { EngineContext } from '../framework/context';
import type { DueWork } from '../framework/due-work';
import type { GroupCommitWriter } from './group-commit-writer';

export const DEFAULT_BATCH_CLOSE_TIME = '23:59';

/** Seconds since local midnight at `unixSeconds` in `tz` (UTC when unknown). */
function localSecondsOfDay(unixSeconds: number, tz: string | null): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', { timeZone: tz || 'UTC', hourCycle: 'h23', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(unixSeconds * 1000));
  } catch {
    parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', hourCycle: 'h23', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(unixSeconds * 1000));
  }
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return n('hour') * 3600 + n('minute') * 60 + n('second');
}

/** The latest moment at or before `now` whose local time of day is `hhmm` in `tz`. */
export function lastCloseMoment(now: number, hhmm: string, tz: string | null): number {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm) ?? /^(\d{2}):(\d{2})$/.exec(DEFAULT_BATCH_CLOSE_TIME);
  const close = Number(m?.[1]) * 3600 + Number(m?.[2]) * 60;
  const local = localSecondsOfDay(now, tz);
  const today = now - (local - close);
  return local >= close ? today : today - 86_400;
}

/**
 * A new batch's auto_close_ts: the moment it opens in location time (created_ts is engine
 * time, which the sandbox clock's per-location offset does not move, so it cannot be
 * compared with close moments). The batch closes at the first close moment after it.
 */
export const openMomentOf = (ctx: EngineContext, locationId: string): number => ctx.locationNow(locationId);

interface OpenBatchRow {
  id: string;
  location_id: string;
  created_ts: number;
  auto_close_ts: number | null;
  batch_close_time: string | null;
  tz: string | null;
}

/** What closing a batch needs from batch-service.ts (named here, not imported: batch-service uses this file). */
export interface BatchSettler {
  settle(batchId: string, userId: string | null, action: string): void;
}

export function batchAutoCloseWork(ctx: EngineContext, batches: () => BatchSettler, writer: () => GroupCommitWriter): DueWork {
  return {
    name: 'batch-auto-close',
    async run(locationId) {
      const rows = ctx
        .stmt(`SELECT b.id, b.location_id, b.created_ts, b.auto_close_ts, pt.batch_close_time, l.tz
          FROM transaction_batches b JOIN product_transactions pt ON pt.id = b.product_transaction_id JOIN locations l ON l.id = b.location_id
          WHERE b.is_open = 1 AND (? IS NULL OR b.location_id = ?)`)
        .all(locationId ?? null, locationId ?? null) as OpenBatchRow[];
      const due = rows
        .map((b) => ({ b, moment: lastCloseMoment(ctx.locationNow(b.location_id), b.batch_close_time ?? DEFAULT_BATCH_CLOSE_TIME, b.tz) }))
        .filter(({ b, moment }) => (b.auto_close_ts ?? b.created_ts) < moment);
      for (const { b, moment } of due) {
        await writer().submit(() => {
          // Re-checked inside the write: a manual settle may have closed it meanwhile.
          const cur = ctx.stmt('SELECT is_open, auto_close_ts FROM transaction_batches WHERE id = ?').get(b.id) as { is_open: number; auto_close_ts: number | null } | undefined;
          if (!cur || cur.is_open !== 1 || (cur.auto_close_ts ?? 0) >= moment) return;
          ctx.stmt('UPDATE transaction_batches SET auto_close_ts = ? WHERE id = ?').run(moment, b.id);
          batches().settle(b.id, null, 'auto_close');
        });
      }
    },
  };
}

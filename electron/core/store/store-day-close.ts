/**
 * The store's Z on this register (issue 24, point 4): when a `store_day` event is applied
 * (apply-events.ts keeps it in sync_state, in the same transaction as last_seq), this register
 * closes its own day with the existing Z code (reports.ts `closeZ`), with the drawer count the
 * manager gave for it, the report marked with the store day's number. Its Z is then pushed like
 * any other (a `z_reports` fact carrying `storeDay`), which is how the store knows it closed.
 *
 * Once per store day, even after a kill: the pending day is cleared after the Z is saved; a kill
 * between the two leaves a pending day whose Z exists, and the next look clears it instead of
 * closing again. A register that cannot make its Z now (its gateway away) tries again later.
 */
import type { DayReport } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/result';
import type { AuditLog } from '../audit/audit-log';
import type { PosDatabase } from '../platform/pos-database';
import type { ZClose } from '../reports/reports';
import { storeDayClosed } from './apply-events';
import { readSyncState, setStoreDayPending } from './sync-state';

/** Wait before trying a store day's Z again (the gateway was away). */
export const STORE_DAY_RETRY_MS = 5_000;

export interface StoreDayCloserDeps {
  db: PosDatabase;
  audit: AuditLog;
  closeZ: (z: ZClose) => Promise<Result<DayReport>>;
  /** Told once this register's Z for a store day is saved. */
  onClosed?: (report: DayReport) => void;
  retryMs?: number;
}

export class StoreDayCloser {
  private running: Promise<void> | null = null;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(private readonly deps: StoreDayCloserDeps) {}

  /** Closes the pending store day, if any (one at a time; a call while one runs joins it). */
  closePending(): Promise<void> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  private async run(): Promise<void> {
    const { db } = this.deps;
    const state = readSyncState(db);
    const day = state.storeDayPending;
    if (!day || this.stopped) return;
    if (storeDayClosed(db, day.number)) return setStoreDayPending(db, null);
    const count = day.counts.find((c) => c.registerId === state.registerId);
    let result: Result<DayReport>;
    try {
      result = await this.deps.closeZ({
        generatedBy: `${day.closedBy} (the store's day #${day.number})`,
        count: count ? { countedCashCents: count.countedCents } : undefined,
        storeDay: day.number,
      });
    } catch (err) {
      result = { ok: false, error: { code: 'failed', message: err instanceof Error ? err.message : String(err) } };
    }
    if (!result.ok) {
      console.error(`[store] this register's Z for the store's day #${day.number} could not be made yet: ${result.error.message}`);
      if (!this.stopped) this.retry = setTimeout(() => void this.closePending(), this.deps.retryMs ?? STORE_DAY_RETRY_MS).unref();
      return;
    }
    setStoreDayPending(db, null);
    const z = result.value;
    this.deps.audit.record({
      kind: 'z-report',
      user: null,
      amountCents: z.allTenders?.netCents ?? z.totals.netCents,
      detail: `Z #${z.number ?? '?'} closed this register's day for the store's day #${day.number} (closed by ${day.closedBy})${z.cashCount ? `; cash counted ${z.cashCount.countedCents} of ${z.cashCount.expectedCents} cents expected` : '; drawer not counted'}`,
    });
    this.deps.onClosed?.(z);
  }
}

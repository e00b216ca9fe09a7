/**
 * This register's store status (shared/ipc/store.ts `StoreStatus`) as one value: the sync loops
 * and the join change parts of it, and every change that shows is told (the core pushes it as
 * the `store:status` event: the status bar and the Registers screen follow it).
 */
import { STORE_STATUS_NONE, type StoreStatus } from '../../../shared/ipc/store';

/** A change of the last sync time alone is told at most this often (a busy register syncs many times a second). */
export const SYNC_TIME_TELL_MS = 1_000;

export class SyncStatus {
  private value: StoreStatus = STORE_STATUS_NONE;
  private toldMs = 0;

  constructor(
    private readonly onChange: (s: StoreStatus) => void,
    private readonly now: () => number = Date.now,
  ) {}

  get(): StoreStatus {
    return this.value;
  }

  /** Changes some fields; tells only when something changed (the last sync time alone, once a second). */
  set(part: Partial<StoreStatus>): void {
    const next = { ...this.value, ...part };
    const changed = (Object.keys(next) as Array<keyof StoreStatus>).filter((k) => next[k] !== this.value[k]);
    if (changed.length === 0) return;
    this.value = next;
    if (changed.length === 1 && changed[0] === 'lastSyncMs' && this.now() - this.toldMs < SYNC_TIME_TELL_MS) return;
    this.toldMs = this.now();
    this.onChange(next);
  }
}

/**
 * The register's two sync loops with its store server (issue 24, point 3), over a pinned link:
 *
 * - **push**: looks at the outbox every `tickMs` (a `SELECT` of its newest seq: cheap, and a
 *   change made at the counter is on its way within a tick), sends the oldest rows as events
 *   (outbox-reader.ts), and deletes them only once the server answered. A push repeated after a
 *   kill or a lost answer carries the same event ids, and the server keeps each once.
 * - **pull**: a long poll for the events after the last seq applied; each answer is applied in
 *   one transaction (apply-events.ts), then the caches and screens that show shared rows are told
 *   (`onApplied`).
 *
 * Either loop failing makes the status "away" and waits (backoff from `tickMs` doubling to
 * `backoffMaxMs`) before trying again, at the next address first when the store has several
 * (store-tls.ts): the register keeps selling from its own copy meanwhile, and its changes wait in
 * the outbox. A 401 means a manager removed this register (its token no longer works): the
 * status says so and both loops stop for good (`onRemoved`).
 */
import { PULL_WAIT_MAX_MS, SYNC_BATCH_MAX, type StoreEvent } from '../../../shared/store/store-wire';
import type { PosDatabase } from '../platform/pos-database';
import type { Applied, EventApplier } from './apply-events';
import type { OutboxReader } from './outbox-reader';
import type { StoreApi } from './store-api';
import { StoreRefusal } from './store-tls';
import { readSyncState, setLastSeq, setLastSync } from './sync-state';
import type { SyncStatus } from './sync-status';

/** The push loop's look at the outbox, ms (RINGUP_STORE_TICK_MS in the node host). */
export const DEFAULT_STORE_TICK_MS = 50;
/** Longest wait between tries while the store server is away, ms (RINGUP_STORE_BACKOFF_MS). */
export const DEFAULT_STORE_BACKOFF_MAX_MS = 5_000;

export interface StoreSyncDeps {
  db: PosDatabase;
  api: StoreApi;
  reader: OutboxReader;
  applier: EventApplier;
  status: SyncStatus;
  registerId: string;
  tickMs?: number;
  backoffMaxMs?: number;
  /** How long a pull waits at the server (default PULL_WAIT_MAX_MS). */
  pullWaitMs?: number;
  /** A batch was applied: the caches and screens that show shared rows follow. */
  onApplied: (applied: Applied) => void;
  /** The store server refused this register's token: a manager removed it. */
  onRemoved: () => void;
  now?: () => number;
}

/** A wait that `wake()` ends early (a stop, or work to do). */
class Nap {
  private wakeNow: (() => void) | null = null;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakeNow === done) this.wakeNow = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeNow = done;
    });
  }

  wake(): void {
    this.wakeNow?.();
  }
}

export class StoreSync {
  private running = false;
  private readonly pushNap = new Nap();
  private readonly pullNap = new Nap();
  private loops: Promise<void>[] = [];
  /** The outbox's count on the status follows every tick, apart from the push loop (see watchOutbox). */
  private watcher: ReturnType<typeof setInterval> | null = null;
  private watchedNewest = -1;
  private readonly tickMs: number;
  private readonly backoffMaxMs: number;
  private readonly now: () => number;

  constructor(private readonly deps: StoreSyncDeps) {
    this.tickMs = deps.tickMs ?? DEFAULT_STORE_TICK_MS;
    this.backoffMaxMs = deps.backoffMaxMs ?? DEFAULT_STORE_BACKOFF_MAX_MS;
    this.now = deps.now ?? Date.now;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = [this.pushLoop(), this.pullLoop()];
    this.watcher = setInterval(() => this.watchOutbox(), this.tickMs);
    this.watcher.unref?.();
  }

  /**
   * The status's `waiting` follows the outbox within a tick, whatever the push loop is doing: on a
   * dead link (no answer, no refusal) a push waits for its timeout, and until then a count kept by
   * the push loop alone would stand still while the cashier sells on ("Store: away, 4 changes
   * waiting" after 150 sales). A look at the newest seq is cheap; the count is read only when it moved.
   */
  private watchOutbox(): void {
    const newest = this.deps.reader.newestSeq();
    if (newest === this.watchedNewest) return;
    this.watchedNewest = newest;
    this.deps.status.set({ waiting: newest === 0 ? 0 : this.deps.reader.count() });
  }

  /** Stops both loops; an open long poll is cut by closing the link (its caller does). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.watcher) clearInterval(this.watcher);
    this.watcher = null;
    this.pushNap.wake();
    this.pullNap.wake();
    this.deps.api.link.close();
    await Promise.all(this.loops);
  }

  /** Push now rather than at the next tick. */
  kick(): void {
    this.pushNap.wake();
  }

  private backoff(failures: number): number {
    return Math.min(this.backoffMaxMs, Math.max(this.tickMs, 100) * 2 ** Math.min(failures, 10));
  }

  private connected(address: string): void {
    const ms = this.now();
    setLastSync(this.deps.db, ms);
    this.deps.status.set({ connection: 'connected', address, lastSyncMs: ms, waiting: this.deps.reader.count() });
  }

  /** Answers whether the loop is to go on. */
  private failed(err: unknown): boolean {
    if (!this.running) return false;
    if (err instanceof StoreRefusal && err.status === 401) {
      this.running = false;
      this.deps.status.set({ connection: 'removed' });
      this.deps.onRemoved();
      return false;
    }
    if (!(err instanceof StoreRefusal)) this.deps.status.set({ connection: 'away', waiting: this.deps.reader.count() });
    else console.error(`[store] the store server refused: ${err.message}`);
    return true;
  }

  private async pushLoop(): Promise<void> {
    let failures = 0;
    let seenNewest = -1;
    while (this.running) {
      const newest = this.deps.reader.newestSeq();
      if (newest === 0) {
        if (seenNewest !== 0) this.deps.status.set({ waiting: 0 });
        seenNewest = 0;
        await this.pushNap.sleep(this.tickMs);
        continue;
      }
      seenNewest = newest;
      const batch = this.deps.reader.read(this.deps.registerId);
      try {
        if (batch.events.length > 0) {
          const answer = await this.deps.api.push(batch.events);
          this.deps.reader.deleteUpTo(batch.throughSeq);
          this.connected(answer.address);
        } else this.deps.reader.deleteUpTo(batch.throughSeq);
        failures = 0;
      } catch (err) {
        if (!this.failed(err)) return;
        await this.pushNap.sleep(this.backoff(failures++));
      }
    }
  }

  private async pullLoop(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        const after = readSyncState(this.deps.db).lastSeq;
        const answer = await this.deps.api.pull(after, this.deps.pullWaitMs ?? PULL_WAIT_MAX_MS);
        if (!this.running) return;
        const events = answer.value.events.filter((e) => e.seq > after).sort((a, b) => a.seq - b.seq);
        const newest = events.length > 0 ? events[events.length - 1]!.seq : after;
        // Fewer than a full batch: the answer covers everything through the store's lastSeq (events this register does not apply included).
        const through = answer.value.events.length < SYNC_BATCH_MAX ? Math.max(newest, answer.value.lastSeq) : newest;
        if (events.length > 0) this.applyBatch(events, through);
        else if (through > after) setLastSeq(this.deps.db, through);
        // Removed by what was just applied: the status says so, and stays so.
        if (!this.running) return;
        this.connected(answer.address);
        this.deps.status.set({ lastSeq: readSyncState(this.deps.db).lastSeq });
        failures = 0;
      } catch (err) {
        if (!this.failed(err)) return;
        await this.pullNap.sleep(this.backoff(failures++));
      }
    }
  }

  private applyBatch(events: StoreEvent[], through: number): void {
    const applied = this.deps.applier.apply(events, through, this.deps.registerId);
    if (applied.renamed !== null) this.deps.status.set({ registerName: applied.renamed });
    this.deps.onApplied(applied);
    if (applied.removed) {
      this.running = false;
      this.deps.status.set({ connection: 'removed' });
      this.deps.onRemoved();
    }
  }
}

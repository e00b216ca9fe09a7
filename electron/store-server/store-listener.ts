/**
 * Wakes the long-polling pulls of this server process when the event log grows: one connection
 * LISTENs on the events channel (every push and server event NOTIFYs it at commit, whichever
 * server process stored it), and each waiting pull is resolved when a seq after its own arrives.
 *
 * When the listening connection is lost (PostgreSQL restarted), every waiter is woken (it
 * re-reads the log and waits again) and the connection is made again with a backoff: a
 * notification missed meanwhile costs at most that re-read, never an event.
 */
import pg from 'pg';
import { EVENTS_CHANNEL } from './store-events';

interface Waiter {
  after: number;
  wake: () => void;
}

const RECONNECT_MS = [100, 250, 500, 1_000, 2_000];

export class EventsListener {
  private client: pg.Client | null = null;
  private readonly waiters = new Set<Waiter>();
  private newest = 0;
  private closed = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly databaseUrl: string) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (n) => {
      const seq = Number(n.payload);
      if (Number.isFinite(seq)) this.seen(seq);
    });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => {});
      this.wakeAll();
      this.reconnectLater();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    this.client = client;
    this.attempt = 0;
    // What was stored while no one listened: every waiter reads again.
    this.wakeAll();
  }

  private reconnectLater(): void {
    if (this.closed || this.retry) return;
    const delay = RECONNECT_MS[Math.min(this.attempt++, RECONNECT_MS.length - 1)]!;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.closed) return;
      this.connect().catch(() => this.reconnectLater());
    }, delay);
  }

  /** A seq known stored (a NOTIFY, or a push this process just committed). */
  seen(seq: number): void {
    if (seq > this.newest) this.newest = seq;
    for (const w of this.waiters) if (seq > w.after) w.wake();
  }

  private wakeAll(): void {
    for (const w of this.waiters) w.wake();
  }

  /** Resolves when a seq after `after` is stored, `ms` passed, the signal aborted or the listener closed. */
  waitAfter(after: number, ms: number, signal?: AbortSignal): Promise<void> {
    if (this.closed || this.newest > after || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const w: Waiter = {
        after,
        wake: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', w.wake);
          this.waiters.delete(w);
          resolve();
        },
      };
      const timer = setTimeout(w.wake, ms);
      signal?.addEventListener('abort', w.wake, { once: true });
      this.waiters.add(w);
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Pulls waiting now (the Registers screen's "connected"). */
  get waiting(): number {
    return this.waiters.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.wakeAll();
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => {});
  }
}

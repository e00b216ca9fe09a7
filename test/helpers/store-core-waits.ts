/**
 * Waits the in-process store tests share (store-sync, store-day, store-gateway): a condition
 * polled with a deadline, and "this register is settled with the store" read from its SQLite
 * (its status follows a change a tick later) and the store's PostgreSQL. Waits on state, never
 * on a sleep.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { StoreStatus } from '../../shared/ipc/contract';
import type { StorePool } from '../../electron/store-server/store-database';
import { value, type OpenCore } from './core-harness';

/** Waits (polling every 10 ms, 15 s at most) until `check` answers something truthy, and answers it. */
export async function until<T>(what: string, check: () => Promise<T> | T, ms = 15_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const storeStatusOf = async (c: OpenCore): Promise<StoreStatus> => value(await c.call('store:status'));

/** Everything this register did is at the store, it has applied everything the store has, and its status says connected. */
export async function settledWith(pool: StorePool, c: OpenCore): Promise<boolean> {
  const db = new Database(join(c.core.dataDir, 'ringup.db'), { readonly: true });
  let local: { waiting: number; lastSeq: number };
  try {
    local = db.prepare('SELECT (SELECT COUNT(*) FROM sync_outbox) AS waiting, (SELECT last_seq FROM sync_state) AS lastSeq').get() as { waiting: number; lastSeq: number };
  } finally {
    db.close();
  }
  const newest = Number((await pool.query<{ n: string }>('SELECT COALESCE(MAX(seq), 0) AS n FROM store_events')).rows[0]!.n);
  return (await storeStatusOf(c)).connection === 'connected' && local.waiting === 0 && local.lastSeq === newest;
}

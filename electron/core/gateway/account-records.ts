/**
 * What the app keeps about one gateway account besides its keys: who rang up each of its
 * transactions (clerk_records) and how much of each was refunded through this counter
 * (refund_ledger). Both are keyed by that account's transaction ids, so when the counter
 * signs out of the account or starts on another one, they are cleared: nothing of the
 * previous account shows, or is trusted, under the next. (In-memory caches — the sale
 * screen's location config, the renderer's lists — go with the process or the per-user
 * reset.) Simplification: the Z reports stay; they are the counter's record of its
 * closed days, printed and numbered, not a cache.
 */
import { getSetting, setSetting, type PosDatabase } from '../platform/pos-database';

const ACCOUNT_SETTING = 'gateway_account';

/** One gateway account: the embedded engine, or a remote base URL + developer id + user. */
export function accountKey(a: { mode: 'embedded' | 'remote'; baseUrl: string; developerId: string; userId: string }): string {
  return a.mode === 'embedded' ? `embedded|${a.userId}` : `remote|${a.baseUrl.replace(/\/+$/, '')}|${a.developerId}|${a.userId}`;
}

export function clearAccountRecords(db: PosDatabase): void {
  db.transaction(() => {
    db.exec('DELETE FROM clerk_records; DELETE FROM refund_ledger;');
  })();
}

/**
 * Called once at start with the account this run uses: when it is not the account of the
 * last run, the previous account's records are cleared. Returns whether they were.
 */
export function enterAccount(db: PosDatabase, key: string): boolean {
  const last = getSetting(db, ACCOUNT_SETTING);
  setSetting(db, ACCOUNT_SETTING, key);
  if (last === undefined || last === key) return false;
  clearAccountRecords(db);
  return true;
}

/** Sign-out: the records go now, and the next start counts as a new account. */
export function leaveAccount(db: PosDatabase): void {
  clearAccountRecords(db);
  setSetting(db, ACCOUNT_SETTING, '');
}

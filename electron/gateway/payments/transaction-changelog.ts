/**
 * Who changed what on a transaction: one row per PUT action (void, authcomplete,
 * authincrement, partialreversal, edit) with the fields whose value changed, old and new.
 * Written inside the same write job as the change, so the log and the record agree.
 * Creation is not logged (the record's created_user_id and created_ts say it), which keeps
 * the sale path to one INSERT.
 */
import type { EngineContext } from '../framework/context';

export interface ChangelogEntry {
  id: string;
  transaction_id: string;
  user_id: string | null;
  action: string;
  /** field → [old, new] */
  changes: Record<string, [unknown, unknown]>;
  created_ts: number;
}

const IGNORED = new Set(['modified_ts', 'modified_user_id']);

export function diffDocs(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (IGNORED.has(k)) continue;
    const a = before[k] ?? null;
    const b = after[k] ?? null;
    if (JSON.stringify(a) !== JSON.stringify(b)) out[k] = [a, b];
  }
  return out;
}

export function recordChange(ctx: EngineContext, transactionId: string, userId: string | null, action: string, changes: Record<string, [unknown, unknown]>, now: number): void {
  ctx
    .stmt('INSERT INTO transaction_changelogs (id, transaction_id, user_id, action, changes, created_ts) VALUES (?, ?, ?, ?, ?, ?)')
    .run(ctx.newId(), transactionId, userId, action, JSON.stringify(changes), now);
}

export function changelogsOf(ctx: EngineContext, transactionId: string): ChangelogEntry[] {
  const rows = ctx
    .stmt('SELECT * FROM transaction_changelogs WHERE transaction_id = ? ORDER BY created_ts, rowid')
    .all(transactionId) as (Omit<ChangelogEntry, 'changes'> & { changes: string })[];
  return rows.map((r) => ({ ...r, changes: JSON.parse(r.changes) as ChangelogEntry['changes'] }));
}

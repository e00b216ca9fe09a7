/**
 * A digest of every row of every table of an engine's database: equal digests before and
 * after a request mean it changed nothing (a refused request must not). Rows are compared
 * as sorted JSON lines, so neither row order nor a table's rowid matters.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../../electron/gateway/framework/database';

const cell = (v: unknown): unknown => (Buffer.isBuffer(v) ? `hex:${v.toString('hex')}` : typeof v === 'bigint' ? String(v) : v);

export function tableNames(db: Db): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
}

/** Per table, the hash of its rows. */
export function digestTables(db: Db): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of tableNames(db)) {
    const lines = (db.prepare(`SELECT * FROM "${t}"`).all() as Record<string, unknown>[]).map((r) => JSON.stringify(Object.entries(r).map(([k, v]) => [k, cell(v)]))).sort();
    out[t] = createHash('sha256').update(lines.join('\n')).digest('hex');
  }
  return out;
}

/** The tables whose rows differ between two digests. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((t) => before[t] !== after[t]).sort();
}

/**
 * Opens the engine's SQLite database with the pragmas the engine relies on, and caches
 * prepared statements by SQL text (the generic list/CRUD code builds SQL from
 * declarations; the same shapes recur, so preparing once keeps the hot path cheap).
 */
import type Database from 'better-sqlite3';
import { openDatabase as openSqlite } from '../../common/sqlite';

export type Db = Database.Database;
export type Statement = Database.Statement;

export interface OpenOptions {
  /** FULL survives power loss per commit; NORMAL (in WAL) survives process crashes. */
  synchronous?: 'FULL' | 'NORMAL';
}

export function openDatabase(file: string, opts: OpenOptions = {}): Db {
  const db = openSqlite(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${opts.synchronous ?? 'FULL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Prepared-statement cache keyed by SQL text; bounded so ad-hoc SQL cannot grow it forever. */
export class StatementCache {
  private readonly map = new Map<string, Statement>();
  constructor(
    private readonly db: Db,
    private readonly limit = 1000,
  ) {}
  get(sql: string): Statement {
    let st = this.map.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      if (this.map.size >= this.limit) {
        const first = this.map.keys().next().value;
        if (first !== undefined) this.map.delete(first);
      }
      this.map.set(sql, st);
    }
    return st;
  }
  clear(): void {
    this.map.clear();
  }
}

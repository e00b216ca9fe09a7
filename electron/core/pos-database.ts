/**
 * The core's own SQLite database, `<dataDir>/ringup.db`: POS users (PIN hashes),
 * the refund ledger, who did each transaction (clerk records) and small settings. The gateway engine keeps its own database
 * under `<dataDir>/gateway/`; nothing here duplicates a transaction, and nothing
 * here ever holds card data.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase } from './sqlite';

export type PosDatabase = Database.Database;

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE pos_users (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('cashier', 'manager')),
     pin_hash TEXT NOT NULL,
     sort INTEGER NOT NULL DEFAULT 0,
     failed_attempts INTEGER NOT NULL DEFAULT 0,
     locked_until INTEGER NOT NULL DEFAULT 0,
     created_ts INTEGER NOT NULL
   );
   CREATE TABLE refund_ledger (
     refund_id TEXT PRIMARY KEY,
     original_id TEXT NOT NULL,
     cents INTEGER NOT NULL CHECK (cents > 0),
     created_ts INTEGER NOT NULL
   );
   CREATE INDEX refund_ledger_original ON refund_ledger (original_id);
   CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // Who rang up, refunded or voided each transaction (see clerk-records.ts); `ref` is the receipt's short reference.
  `CREATE TABLE clerk_records (
     transaction_id TEXT NOT NULL,
     action TEXT NOT NULL CHECK (action IN ('sale', 'refund', 'void')),
     user_id TEXT NOT NULL,
     user_name TEXT NOT NULL,
     linked_to TEXT,
     created_ts INTEGER NOT NULL,
     ref TEXT GENERATED ALWAYS AS (upper(substr(replace(transaction_id, '-', ''), -8))) VIRTUAL,
     PRIMARY KEY (transaction_id, action)
   );
   CREATE INDEX clerk_records_ref ON clerk_records (ref);
   CREATE INDEX clerk_records_linked ON clerk_records (linked_to) WHERE linked_to IS NOT NULL;`,
];

export function openPosDatabase(dataDir: string): PosDatabase {
  mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(join(dataDir, 'ringup.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  const version = db.pragma('user_version', { simple: true }) as number;
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  return db;
}

export function getSetting(db: PosDatabase, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setSetting(db: PosDatabase, key: string, value: string): void {
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}

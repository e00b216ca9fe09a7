/** Recurring tables (engine migration range 400–499). */
import type { Migration } from '../framework/migrations';

export const RECURRING_MIGRATIONS: Migration[] = [
  {
    version: 400,
    module: 'recurring',
    name: 'recurrings, their runs and notices',
    up(db) {
      db.exec(`CREATE TABLE recurrings (
        id TEXT PRIMARY KEY,
        location_id TEXT NOT NULL,
        account_vault_id TEXT NOT NULL,
        product_transaction_id TEXT,
        contact_id TEXT,
        transaction_amount TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        interval INTEGER NOT NULL,
        interval_type TEXT NOT NULL,
        start_date TEXT NOT NULL,
        end_date TEXT NOT NULL DEFAULT '0000-00-00',
        installment_total_count INTEGER,
        installment_amount_total TEXT,
        next_run_date TEXT NOT NULL,
        notification_days INTEGER NOT NULL DEFAULT 0,
        active INTEGER NOT NULL DEFAULT 1,
        status TEXT NOT NULL DEFAULT 'active',
        payment_method TEXT NOT NULL,
        recurring_api_id TEXT,
        recurring_type_id TEXT NOT NULL,
        description TEXT,
        recurring_c1 TEXT, recurring_c2 TEXT, recurring_c3 TEXT,
        anchor_date TEXT NOT NULL,
        anchor_index INTEGER NOT NULL DEFAULT 0,
        next_index INTEGER NOT NULL DEFAULT 0,
        deferred_count INTEGER NOT NULL DEFAULT 0,
        skipped_count INTEGER NOT NULL DEFAULT 0,
        runs_done INTEGER NOT NULL DEFAULT 0,
        created_ts INTEGER NOT NULL,
        modified_ts INTEGER NOT NULL,
        created_user_id TEXT,
        modified_user_id TEXT
      );
      CREATE INDEX recurrings_location_created ON recurrings (location_id, created_ts);
      CREATE INDEX recurrings_due ON recurrings (status, location_id, next_run_date);
      CREATE INDEX recurrings_vault ON recurrings (account_vault_id);
      CREATE UNIQUE INDEX recurrings_api_id ON recurrings (location_id, recurring_api_id) WHERE recurring_api_id IS NOT NULL;
      -- One row per (recurring, run date): the claim that makes a run happen at most once.
      -- Written in the same SQLite transaction as the run's transaction record.
      CREATE TABLE recurring_runs (
        recurring_id TEXT NOT NULL,
        run_date TEXT NOT NULL,
        transaction_id TEXT,
        status_id INTEGER,
        error TEXT,
        created_ts INTEGER NOT NULL,
        PRIMARY KEY (recurring_id, run_date)
      ) WITHOUT ROWID;
      -- One notice per (recurring, run date), written with the outbox row.
      CREATE TABLE recurring_notices (
        recurring_id TEXT NOT NULL,
        run_date TEXT NOT NULL,
        notification_id TEXT,
        created_ts INTEGER NOT NULL,
        PRIMARY KEY (recurring_id, run_date)
      ) WITHOUT ROWID;`);
    },
  },
];

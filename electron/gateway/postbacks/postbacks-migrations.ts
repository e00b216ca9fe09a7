/** Postback delivery outbox (engine migration range 600–699, shared with the notification transport). */
import type { Migration } from '../framework/migrations';

export const POSTBACKS_MIGRATIONS: Migration[] = [
  {
    version: 610,
    module: 'postbacks',
    name: 'postback deliveries: one row per event and config, with its attempts',
    up(db) {
      db.exec(`
        CREATE TABLE postback_deliveries (
          id TEXT PRIMARY KEY,
          postback_config_id TEXT NOT NULL,
          location_id TEXT NOT NULL,
          type TEXT NOT NULL,
          resource TEXT NOT NULL,
          record_id TEXT NOT NULL,
          data TEXT NOT NULL,
          number_of_attempts INTEGER NOT NULL DEFAULT 0,
          status TEXT NOT NULL DEFAULT 'pending',
          next_attempt_ts INTEGER,
          last_status_code INTEGER,
          last_error TEXT,
          attempts_log TEXT NOT NULL DEFAULT '[]',
          delivered_ts INTEGER,
          created_ts INTEGER NOT NULL,
          modified_ts INTEGER NOT NULL
        );
        CREATE INDEX postback_deliveries_due ON postback_deliveries (location_id, next_attempt_ts) WHERE status = 'pending';
        CREATE INDEX postback_deliveries_config ON postback_deliveries (postback_config_id, created_ts);
        CREATE INDEX postback_deliveries_location ON postback_deliveries (location_id, created_ts);
        CREATE INDEX postback_configs_listen ON postback_configs (location_id, resource);
      `);
    },
  },
  {
    version: 611,
    module: 'postbacks',
    name: 'postback deliveries: the next attempt in milliseconds, so retries keep attempt_interval exactly',
    up(db) {
      db.exec(`
        ALTER TABLE postback_deliveries ADD COLUMN next_attempt_ms INTEGER;
        UPDATE postback_deliveries SET next_attempt_ms = next_attempt_ts * 1000 WHERE next_attempt_ts IS NOT NULL;
        DROP INDEX postback_deliveries_due;
        CREATE INDEX postback_deliveries_due ON postback_deliveries (location_id, next_attempt_ms) WHERE status = 'pending';
      `);
    },
  },
];

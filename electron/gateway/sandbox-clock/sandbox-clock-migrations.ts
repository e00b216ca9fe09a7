/** Sandbox clock tables (engine migration range 300–349, shared with the recurring module). */
import type { Migration } from '../framework/migrations';

export const SANDBOX_CLOCK_MIGRATIONS: Migration[] = [
  {
    version: 300,
    module: 'sandbox-clock',
    name: 'per-location sandbox clock offsets',
    up(db) {
      db.exec(`CREATE TABLE sandbox_clock_offsets (
        location_id TEXT PRIMARY KEY REFERENCES locations(id) ON DELETE CASCADE,
        offset_seconds INTEGER NOT NULL DEFAULT 0 CHECK (offset_seconds >= 0)
      )`);
    },
  },
];

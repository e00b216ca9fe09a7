/**
 * Versioned migrations shared by every engine module.
 *
 * Each migration has a globally unique integer version: the merchant module (this
 * engine's core) uses 1–99, payments 100–199; later modules take the next hundred.
 * `schema_migrations` records which versions ran, so a migration added to an earlier
 * range still runs on a database that already has later ones. Each migration runs in
 * its own transaction.
 */
import type { Db } from './database';

export interface Migration {
  version: number;
  /** Which module owns it (for the record and for error messages). */
  module: string;
  name: string;
  up(db: Db): void;
}

export function sortedMigrations(all: readonly Migration[]): Migration[] {
  const seen = new Map<number, Migration>();
  for (const m of all) {
    const prev = seen.get(m.version);
    if (prev) throw new Error(`Migration version ${m.version} is used twice (${prev.module}/${prev.name} and ${m.module}/${m.name}).`);
    seen.set(m.version, m);
  }
  return [...seen.values()].sort((a, b) => a.version - b.version);
}

export function appliedVersions(db: Db): Set<number> {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, module TEXT NOT NULL, name TEXT NOT NULL, applied_ts INTEGER NOT NULL)`);
  return new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
}

/** Runs every migration not yet applied, in version order, up to `upTo` (inclusive) if given. */
export function migrate(db: Db, all: readonly Migration[], upTo?: number): number[] {
  const done = appliedVersions(db);
  const ran: number[] = [];
  const record = db.prepare('INSERT INTO schema_migrations (version, module, name, applied_ts) VALUES (?, ?, ?, ?)');
  for (const m of sortedMigrations(all)) {
    if (done.has(m.version) || (upTo !== undefined && m.version > upTo)) continue;
    db.transaction(() => {
      m.up(db);
      record.run(m.version, m.module, m.name, Math.floor(Date.now() / 1000));
    })();
    ran.push(m.version);
  }
  return ran;
}

export function currentVersion(db: Db): number {
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null } | undefined;
  return row?.v ?? 0;
}

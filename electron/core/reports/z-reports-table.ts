/**
 * The z_reports table (z-report-store.ts), declared once: ZReportStore makes it when it first
 * opens, and the store sync's migration step (store/sync-capture.ts) makes it too, so the capture
 * trigger has a table to sit on in a database that has closed no day yet. In a file of its own,
 * importing nothing, so the migrations can use it without an import circle. Never edit it: a
 * change to the table is a new migration.
 */
export const Z_REPORTS_TABLE = `CREATE TABLE IF NOT EXISTS z_reports (
      number INTEGER PRIMARY KEY,
      from_ts INTEGER NOT NULL,
      to_ts INTEGER NOT NULL,
      net_cents INTEGER NOT NULL,
      closed_by TEXT NOT NULL,
      report TEXT NOT NULL
    )`;

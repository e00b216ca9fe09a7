/**
 * Where closed days are kept: the Z reports, numbered, in the core's own database. The
 * table is created here (IF NOT EXISTS) rather than in pos-database's numbered migrations,
 * so this feature does not take a migration number other work may also claim. Each row
 * keeps the report as it was printed (JSON), so a past Z reads back exactly, with the
 * cash counted at the close when the manager counted it. `net_cents` is the net of all
 * tenders (card only for Z reports closed before cash was counted in the totals).
 */
import type { DayReport, ZReportEntry } from '../../../shared/ipc/contract';
import type { PosDatabase } from '../platform/pos-database';
import { Z_REPORTS_TABLE } from './z-reports-table';

export class ZReportStore {
  constructor(private readonly db: PosDatabase) {
    db.exec(Z_REPORTS_TABLE);
  }

  /** End (unix seconds, inclusive) of the last closed day, or null before the first Z. */
  lastClosedTo(): number | null {
    const row = this.db.prepare('SELECT MAX(to_ts) AS t FROM z_reports').get() as { t: number | null };
    return row.t;
  }

  nextNumber(): number {
    const row = this.db.prepare('SELECT MAX(number) AS n FROM z_reports').get() as { n: number | null };
    return (row.n ?? 0) + 1;
  }

  /** Stores a Z report; refuses one that does not start after the last (two closes at once). */
  save(report: DayReport & { number: number }): boolean {
    return this.db.transaction(() => {
      const last = this.lastClosedTo();
      if (last !== null && report.from <= last) return false;
      this.db
        .prepare('INSERT INTO z_reports (number, from_ts, to_ts, net_cents, closed_by, report) VALUES (?, ?, ?, ?, ?, ?)')
        .run(report.number, report.from, report.to, report.allTenders?.netCents ?? report.totals.netCents, report.generatedBy, JSON.stringify(report));
      return true;
    })();
  }

  list(limit = 100): ZReportEntry[] {
    return (this.db.prepare('SELECT number, from_ts, to_ts, net_cents, closed_by FROM z_reports ORDER BY number DESC LIMIT ?').all(limit) as Array<{ number: number; from_ts: number; to_ts: number; net_cents: number; closed_by: string }>).map((r) => ({
      number: r.number,
      from: r.from_ts,
      to: r.to_ts,
      netCents: r.net_cents,
      closedBy: r.closed_by,
    }));
  }

  get(number: number): DayReport | null {
    const row = this.db.prepare('SELECT report FROM z_reports WHERE number = ?').get(number) as { report: string } | undefined;
    return row ? (JSON.parse(row.report) as DayReport) : null;
  }
}

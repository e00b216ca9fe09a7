/**
 * The receipt printers registered on Devices, in the app database (`printers`, pos-database.ts):
 * where each is (TCP host and port, or a serial path and its speed), its paper, characters per
 * line, whether it cuts, its logo (the PNG's bytes) and whether it is in use.
 * Simplification: the counter prints on the first active printer registered (as it uses the
 * first active terminal); a store with two counters runs a register at each.
 */
import { randomUUID } from 'node:crypto';
import type { PrinterAddress, PrinterRecord, PrinterSettings } from '../../../shared/ipc/contract';
import type { PosDatabase } from '../platform/pos-database';

interface PrinterRow {
  id: string;
  name: string;
  kind: 'tcp' | 'serial';
  host: string | null;
  port: number | null;
  path: string | null;
  baud: number | null;
  paper: PrinterRecord['paper'];
  chars_per_line: number;
  cut: number;
  logo: Buffer | null;
  active: number;
}

const PNG_PREFIX = 'data:image/png;base64,';

function recordOf(r: PrinterRow): PrinterRecord {
  const address: PrinterAddress =
    r.kind === 'tcp' ? { kind: 'tcp', host: r.host ?? '', port: r.port ?? 9100 } : { kind: 'serial', path: r.path ?? '', baud: (r.baud ?? 9600) as 9600 };
  return {
    id: r.id,
    name: r.name,
    address,
    paper: r.paper,
    charsPerLine: r.chars_per_line,
    cut: r.cut === 1,
    logo: r.logo ? PNG_PREFIX + r.logo.toString('base64') : null,
    active: r.active === 1,
  };
}

export class PrinterRegistry {
  constructor(
    private readonly db: PosDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  list(): PrinterRecord[] {
    return (this.db.prepare('SELECT * FROM printers ORDER BY created_ts, id').all() as PrinterRow[]).map(recordOf);
  }

  get(id: string): PrinterRecord | null {
    const r = this.db.prepare('SELECT * FROM printers WHERE id = ?').get(id) as PrinterRow | undefined;
    return r ? recordOf(r) : null;
  }

  /** The printer the counter prints on: the first active one registered, or null. */
  active(): PrinterRecord | null {
    const r = this.db.prepare('SELECT * FROM printers WHERE active = 1 ORDER BY created_ts, id LIMIT 1').get() as PrinterRow | undefined;
    return r ? recordOf(r) : null;
  }

  /** Adds a printer (no id) or changes one; null when the id is not registered. */
  save(id: string | undefined, p: PrinterSettings): PrinterRecord | null {
    const a = p.address;
    const cols = {
      name: p.name,
      kind: a.kind,
      host: a.kind === 'tcp' ? a.host : null,
      port: a.kind === 'tcp' ? a.port : null,
      path: a.kind === 'serial' ? a.path : null,
      baud: a.kind === 'serial' ? a.baud : null,
      paper: p.paper,
      chars_per_line: p.charsPerLine,
      cut: p.cut ? 1 : 0,
      logo: p.logo ? Buffer.from(p.logo.slice(PNG_PREFIX.length), 'base64') : null,
      active: p.active ? 1 : 0,
    };
    if (id) {
      const r = this.db
        .prepare(
          `UPDATE printers SET name = @name, kind = @kind, host = @host, port = @port, path = @path, baud = @baud, paper = @paper,
             chars_per_line = @chars_per_line, cut = @cut, logo = @logo, active = @active WHERE id = @id`,
        )
        .run({ ...cols, id });
      return r.changes === 1 ? this.get(id) : null;
    }
    const newId = `prn_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    this.db
      .prepare(
        `INSERT INTO printers (id, name, kind, host, port, path, baud, paper, chars_per_line, cut, logo, active, created_ts)
         VALUES (@id, @name, @kind, @host, @port, @path, @baud, @paper, @chars_per_line, @cut, @logo, @active, @created_ts)`,
      )
      .run({ ...cols, id: newId, created_ts: this.now() });
    return this.get(newId);
  }

  remove(id: string): PrinterRecord | null {
    const was = this.get(id);
    if (was) this.db.prepare('DELETE FROM printers WHERE id = ?').run(id);
    return was;
  }
}

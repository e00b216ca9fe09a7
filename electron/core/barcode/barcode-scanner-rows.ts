/**
 * The registered barcode scanners, in the app database (table barcode_scanners): a name, the
 * serial path and the baud rate. One scanner a path (a UNIQUE path): two registrations of the
 * same port would fight over it.
 */
import { randomUUID } from 'node:crypto';
import type { BarcodeScannerSave } from '../../../shared/ipc/contract';
import type { PosDatabase } from '../platform/pos-database';

export interface BarcodeScannerRow {
  id: string;
  name: string;
  path: string;
  baud: number;
}

export class BarcodeScannerRows {
  constructor(private readonly db: PosDatabase) {}

  list(): BarcodeScannerRow[] {
    return this.db.prepare('SELECT id, name, path, baud FROM barcode_scanners ORDER BY created_ts, id').all() as BarcodeScannerRow[];
  }

  get(id: string): BarcodeScannerRow | undefined {
    return this.db.prepare('SELECT id, name, path, baud FROM barcode_scanners WHERE id = ?').get(id) as BarcodeScannerRow | undefined;
  }

  /** The scanner registered at `path`, other than `exceptId`. */
  atPath(path: string, exceptId?: string): BarcodeScannerRow | undefined {
    return this.db.prepare('SELECT id, name, path, baud FROM barcode_scanners WHERE path = ? AND id IS NOT ?').get(path, exceptId ?? null) as BarcodeScannerRow | undefined;
  }

  /** Adds (no id) or changes one; answers undefined when the id is not registered. */
  save(s: BarcodeScannerSave): BarcodeScannerRow | undefined {
    if (s.id) {
      const r = this.db.prepare('UPDATE barcode_scanners SET name = ?, path = ?, baud = ? WHERE id = ?').run(s.name, s.path, s.baud, s.id);
      return r.changes === 0 ? undefined : this.get(s.id);
    }
    const id = randomUUID();
    this.db.prepare('INSERT INTO barcode_scanners (id, name, path, baud, created_ts) VALUES (?, ?, ?, ?, ?)').run(id, s.name, s.path, s.baud, Date.now());
    return this.get(id);
  }

  remove(id: string): BarcodeScannerRow | undefined {
    const row = this.get(id);
    if (row) this.db.prepare('DELETE FROM barcode_scanners WHERE id = ?').run(id);
    return row;
  }
}

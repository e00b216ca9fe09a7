import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { WalCheckpointer } from '../../../electron/common/wal-checkpointer';

describe('WAL checkpointer worker', () => {
  const dirs: string[] = [];
  afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

  it('copies WAL pages into the database file off the main thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-'));
    dirs.push(dir);
    const file = join(dir, 'x.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (v TEXT)');
    const ins = db.prepare('INSERT INTO t (v) VALUES (?)');
    db.transaction(() => { for (let i = 0; i < 2000; i++) ins.run('x'.repeat(500)); })();
    const before = statSync(file).size;
    const cp = await WalCheckpointer.start(file, 20);
    expect(cp).toBeDefined();
    // The worker copies pages while we watch the file grow: wait for the whole copy
    // (up to 5 s), not just the first bytes of it.
    let after = before;
    for (let i = 0; i < 250 && after <= before + 500_000; i++) {
      await new Promise((r) => setTimeout(r, 20));
      after = statSync(file).size;
    }
    expect(after).toBeGreaterThan(before + 500_000);
    await cp?.stop();
    db.close();
  });
});

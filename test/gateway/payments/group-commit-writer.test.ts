import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommitWriter } from '../../../electron/gateway/payments/group-commit-writer';

describe('group commit writer', () => {
  const dirs: string[] = [];
  afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

  /** A WAL database in a fresh folder with one table `t (k)`, a writer on it and its insert. */
  function writerOnTable(): { db: Database.Database; w: GroupCommitWriter; ins: Database.Statement } {
    const dir = mkdtempSync(join(tmpdir(), 'gcw-'));
    dirs.push(dir);
    const db = new Database(join(dir, 'x.db'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
    return { db, w: new GroupCommitWriter(db), ins: db.prepare('INSERT INTO t (k) VALUES (?)') };
  }

  it('commits many queued writes in one transaction and isolates a failing job', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gcw-'));
    dirs.push(dir);
    const file = join(dir, 'x.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
    const w = new GroupCommitWriter(db);
    const ins = db.prepare('INSERT INTO t (k) VALUES (?)');
    const jobs = Array.from({ length: 50 }, (_, i) => w.submit(() => ins.run(i === 7 ? 'k1' : `k${i}`).changes));
    const settled = await Promise.allSettled(jobs);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(49);
    expect(settled[7]?.status).toBe('rejected');
    expect(w.batches).toBe(1);
    expect(w.maxBatch).toBe(50);
    // A second connection (another process would see the same) finds all 49 rows committed.
    const other = new Database(file, { readonly: true });
    expect((other.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n).toBe(49);
    other.close();
    db.close();
  });

  it('a job that wrote and then threw leaves none of its writes, and its neighbours and nested transactions keep theirs', async () => {
    const { db, w, ins } = writerOnTable();
    const before = w.submit(() => ins.run('before').changes);
    const broken = w.submit(() => {
      ins.run('half-1');
      ins.run('half-2');
      throw new Error('refused after writing');
    });
    // A job may open its own (nested) transaction; it becomes a savepoint inside the job's.
    const nested = w.submit(() => db.transaction(() => ins.run('nested').changes)());
    const settled = await Promise.allSettled([before, broken, nested]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((db.prepare('SELECT k FROM t ORDER BY k').all() as { k: string }[]).map((r) => r.k)).toEqual(['before', 'nested']);
    expect(db.inTransaction).toBe(false);
    // The writer goes on after the failure.
    await w.submit(() => ins.run('after').changes);
    expect((db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n).toBe(3);
    db.close();
  });

  it('runs a batch without savepoints, and again with one per job when a job throws (the jobs before it run twice, each commits once)', async () => {
    const { db, w, ins } = writerOnTable();
    const runs = { a: 0, b: 0, c: 0 };
    let undone = 0;
    w.onRollback(() => undone++);
    // A job that rolls back to the per-job savepoint finds one only in the second run.
    const probe = () => {
      try {
        db.prepare('ROLLBACK TO ringup_job').run();
        return 'savepoint';
      } catch {
        return 'none';
      }
    };
    const clean = await Promise.all([w.submit(probe), w.submit(() => ins.run('x').changes)]);
    expect(clean).toEqual(['none', 1]);
    expect(w.retried).toBe(0);
    expect(undone).toBe(0);

    const a = w.submit(() => (runs.a++, ins.run('a').changes));
    const b = w.submit(() => {
      runs.b++;
      ins.run('b');
      throw new Error('refused after writing');
    });
    const c = w.submit(() => (runs.c++, probe()));
    const settled = await Promise.allSettled([a, b, c]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[2] as PromiseFulfilledResult<string>).value).toBe('savepoint');
    expect(w.retried).toBe(1);
    // The first run stopped at b: c ran only in the second.
    expect(runs).toEqual({ a: 2, b: 2, c: 1 });
    // Told twice: the whole batch undone, then b's own savepoint.
    expect(undone).toBe(2);
    expect((db.prepare('SELECT k FROM t ORDER BY k').all() as { k: string }[]).map((r) => r.k)).toEqual(['a', 'x']);
    expect(db.inTransaction).toBe(false);
    db.close();
  });

  it('an error that ends the whole transaction (disk full, I/O) commits nothing of its batch and rejects every job of it', async () => {
    const { db, w, ins } = writerOnTable();
    const first = w.submit(() => ins.run('first').changes);
    // What SQLite does on SQLITE_FULL or an I/O error in a statement: the transaction is gone.
    const ending = w.submit(() => {
      db.exec('ROLLBACK');
      throw new Error('disk I/O error');
    });
    // Run after it, a job must not start a transaction of its own and commit alone.
    const after = w.submit(() => ins.run('after').changes);
    const settled = await Promise.allSettled([first, ending, after]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n).toBe(0);
    expect(db.inTransaction).toBe(false);
    // The writer goes on with the next batch.
    await w.submit(() => ins.run('next').changes);
    expect((db.prepare('SELECT k FROM t').all() as { k: string }[]).map((r) => r.k)).toEqual(['next']);
    db.close();
  });

  it('in WAL-fsync mode resolves only after the fsync, and close() waits for it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gcw-'));
    dirs.push(dir);
    const file = join(dir, 'x.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
    const w = new GroupCommitWriter(db, { walPath: `${file}-wal` });
    const ins = db.prepare('INSERT INTO t (k) VALUES (?)');
    const jobs = Array.from({ length: 30 }, (_, i) => w.submit(() => ins.run(`k${i}`).changes));
    expect(w.fsyncs).toBe(0);
    expect(await Promise.all(jobs)).toEqual(Array(30).fill(1));
    expect(w.fsyncs).toBeGreaterThanOrEqual(1);
    const late = w.submit(() => ins.run('late').changes);
    await w.close();
    expect(await late).toBe(1);
    expect((db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n).toBe(31);
    db.close();
  });
  it('commits nothing while held, then what waited in one batch; a hold while held is skipped', async () => {
    const { db, w, ins } = writerOnTable();
    const count = () => (db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;
    let release!: () => void;
    let seenInside = -1;
    const held = w.hold(async () => {
      await new Promise<void>((r) => (release = r));
      seenInside = count();
    });
    let skippedRan = false;
    await w.hold(async () => {
      skippedRan = true;
    });
    expect(skippedRan).toBe(false);
    const jobs = Array.from({ length: 5 }, (_, i) => w.submit(() => ins.run(`k${i}`).changes));
    // Several event-loop turns pass: a writer that was not held would have committed by now.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(count()).toBe(0);
    release();
    await held;
    expect(seenInside).toBe(0);
    await Promise.all(jobs);
    expect(count()).toBe(5);
    expect(w.batches).toBe(1);
    db.close();
  });
});

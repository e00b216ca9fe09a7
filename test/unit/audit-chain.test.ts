/**
 * The audit log is tamper-evident (issue 22, point 2): on real SQLite files, rows written
 * through AuditLog are chained and check out; the triggers refuse UPDATE, DELETE and an
 * unchained insert while they are there; someone who opens the file with another connection,
 * drops the triggers and changes or deletes a row is caught, and the check names the record;
 * a database with rows from before the chain is chained by its migration. `audit:verify` is a
 * manager's, through the one dispatcher.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog, type AuditRecord } from '../../electron/core/audit/audit-log';
import { auditRowHash, auditVerificationSentence, type AuditHashedRow } from '../../electron/core/audit/audit-chain';
import { AUTH_ERRORS } from '../../electron/core/auth/users';
import { openPosDatabase, POS_MIGRATIONS, type PosDatabase } from '../../electron/core/platform/pos-database';
import { tempDirs } from '../helpers/temp-dirs';
import { useCoreHarness, value } from '../helpers/core-harness';

const { newDir } = tempDirs();
const open: Database.Database[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

function posDatabase(dir = newDir('ringup-audit-chain-')): { db: PosDatabase; file: string } {
  const db = openPosDatabase(dir);
  open.push(db);
  return { db, file: join(dir, 'ringup.db') };
}

/** A second connection to the same file, as the sqlite3 tool or another program would open it. */
function otherConnection(file: string): Database.Database {
  const db = new Database(file);
  open.push(db);
  return db;
}

const dropTriggers = (db: Database.Database) => db.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete; DROP TRIGGER audit_log_chained;');

function recordMany(audit: AuditLog, n: number): void {
  for (let i = 1; i <= n; i++) {
    const r: AuditRecord = { kind: i % 3 ? 'sale' : 'sign-in', user: { id: `u${i % 4}`, name: `Clerk ${i % 4}` }, amountCents: i % 3 ? i * 100 : null, detail: `row ${i}` };
    if (i % 5 === 0) r.transactionId = `t-${i}`;
    audit.record(r);
  }
}

describe('the audit log hash chain', () => {
  it('chains every row written through AuditLog, and they check out', async () => {
    const { db } = posDatabase();
    const audit = new AuditLog(db, () => 1_700_000_000_000);
    expect(await audit.verify()).toEqual({ ok: true, rowsChecked: 0, sentence: 'The audit log has no records yet.' });
    recordMany(audit, 3);
    const rows = db.prepare('SELECT seq, prev_hash, hash FROM audit_log ORDER BY seq').all() as Array<{ seq: number; prev_hash: string; hash: string }>;
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(rows[0]!.prev_hash).toBe('0'.repeat(64));
    expect(rows[1]!.prev_hash).toBe(rows[0]!.hash);
    expect(rows[2]!.prev_hash).toBe(rows[1]!.hash);
    for (const r of rows) expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await audit.verify()).toEqual({ ok: true, rowsChecked: 3, sentence: 'All 3 audit records check out.' });
  });

  it('says the count in plain words', () => {
    expect(auditVerificationSentence({ ok: true, rowsChecked: 1 })).toBe('The one audit record checks out.');
    expect(auditVerificationSentence({ ok: true, rowsChecked: 1204 })).toBe('All 1,204 audit records check out.');
    expect(auditVerificationSentence({ ok: false, rowsChecked: 57, firstBadSeq: 57 })).toBe('Audit record 57 was changed or removed after it was written.');
  });

  it('the triggers refuse UPDATE, DELETE and an unchained insert while they are there', () => {
    const { db } = posDatabase();
    const audit = new AuditLog(db);
    recordMany(audit, 2);
    expect(() => db.prepare("UPDATE audit_log SET detail = 'nothing happened' WHERE seq = 1").run()).toThrow(/append-only/);
    expect(() => db.prepare('UPDATE audit_log SET hash = prev_hash').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log WHERE seq = 2').run()).toThrow(/append-only/);
    const insert = db.prepare("INSERT INTO audit_log (ts, kind, detail, prev_hash, hash) VALUES (1, 'sale', 'forged', ?, ?)");
    expect(() => insert.run(null, null)).toThrow(/chained/);
    // A row that does not name the newest row's hash is refused too.
    expect(() => insert.run('0'.repeat(64), 'f'.repeat(64))).toThrow(/chained/);
    expect((db.prepare('SELECT COUNT(*) AS n FROM audit_log').get() as { n: number }).n).toBe(2);
  });

  it('names the record changed through another connection after the triggers were dropped', async () => {
    const { db, file } = posDatabase();
    const audit = new AuditLog(db);
    recordMany(audit, 6);
    const other = otherConnection(file);
    dropTriggers(other);
    other.prepare('UPDATE audit_log SET amount_cents = 1 WHERE seq = 4').run();
    expect(await audit.verify()).toEqual({ ok: false, rowsChecked: 4, firstBadSeq: 4, sentence: 'Audit record 4 was changed or removed after it was written.' });
  });

  it('names the record rewritten with its hash recomputed (the next one no longer links to it)', async () => {
    const { db, file } = posDatabase();
    const audit = new AuditLog(db);
    recordMany(audit, 5);
    const other = otherConnection(file);
    dropTriggers(other);
    const row = other.prepare('SELECT seq, ts, kind, user_id, user_name, amount_cents, transaction_id, detail, prev_hash FROM audit_log WHERE seq = 2').get() as AuditHashedRow & { prev_hash: string };
    const forged = { ...row, detail: 'nothing happened' };
    other.prepare('UPDATE audit_log SET detail = ?, hash = ? WHERE seq = 2').run(forged.detail, auditRowHash(row.prev_hash, forged));
    expect(await audit.verify()).toMatchObject({ ok: false, firstBadSeq: 2 });
  });

  it('names a record deleted from the middle, and the newest one deleted', async () => {
    const { db, file } = posDatabase();
    const audit = new AuditLog(db);
    recordMany(audit, 5);
    const other = otherConnection(file);
    dropTriggers(other);
    other.prepare('DELETE FROM audit_log WHERE seq = 5').run();
    expect(await audit.verify()).toMatchObject({ ok: false, rowsChecked: 4, firstBadSeq: 5, sentence: 'Audit record 5 was changed or removed after it was written.' });
    other.prepare('DELETE FROM audit_log WHERE seq = 3').run();
    expect(await audit.verify()).toMatchObject({ ok: false, firstBadSeq: 3 });
  });

  it('migrates a database with rows written before the chain: every row chained in seq order, then it checks out and grows', async () => {
    const CHAIN = POS_MIGRATIONS.findIndex((m) => m.includes('ADD COLUMN prev_hash'));
    expect(CHAIN).toBeGreaterThan(0);
    const dir = newDir('ringup-audit-chain-old-');
    const old = new Database(join(dir, 'ringup.db'));
    for (let v = 0; v < CHAIN; v++) old.exec(POS_MIGRATIONS[v]!);
    old.pragma(`user_version = ${CHAIN}`);
    // More rows than one page of the check (2,000), with NULLs and empty details among them.
    const insert = old.prepare('INSERT INTO audit_log (ts, kind, user_id, user_name, amount_cents, transaction_id, detail) VALUES (?, ?, ?, ?, ?, ?, ?)');
    old.transaction(() => {
      for (let i = 1; i <= 4_500; i++) insert.run(1_000 + i, i % 2 ? 'sale' : 'refund', i % 7 ? `u${i % 3}` : null, i % 7 ? `Clerk ${i % 3}` : null, i % 4 ? i : null, i % 5 ? null : `t-${i}`, i % 6 ? `row ${i}` : '');
    })();
    old.close();

    const { db, file } = posDatabase(dir);
    const audit = new AuditLog(db);
    expect((db.prepare('SELECT COUNT(*) AS n FROM audit_log WHERE hash IS NULL OR prev_hash IS NULL').get() as { n: number }).n).toBe(0);
    expect(await audit.verify()).toEqual({ ok: true, rowsChecked: 4_500, sentence: 'All 4,500 audit records check out.' });
    audit.record({ kind: 'sign-in', user: { id: 'u1', name: 'Clerk 1' } });
    expect(await audit.verify()).toMatchObject({ ok: true, rowsChecked: 4_501 });
    // A change past the first page is found and named.
    const other = otherConnection(file);
    dropTriggers(other);
    other.prepare("UPDATE audit_log SET user_name = 'Someone else' WHERE seq = 4321").run();
    expect(await audit.verify()).toMatchObject({ ok: false, firstBadSeq: 4_321 });
  });
});

describe('audit:verify', () => {
  const h = useCoreHarness('ringup-audit-verify-');

  it("is a manager's: a cashier is refused, and so is a window nobody signed in to", async () => {
    await h.signInAs('Casey', '0000');
    expect(await h.call('audit:verify')).toMatchObject({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.managerOnly } });
    value(await h.call('auth:sign-out'));
    expect(await h.call('audit:verify')).toMatchObject({ ok: false, error: { code: 'unauthenticated' } });
  });

  it('answers the sentence for the log as it is, and names a record changed in the file', async () => {
    await h.signInAs('Morgan', '1234');
    const good = value(await h.call('audit:verify'));
    expect(good.ok).toBe(true);
    expect(good.rowsChecked).toBeGreaterThan(1); // the sign-ins above are audited
    expect(good.sentence).toBe(`All ${good.rowsChecked.toLocaleString('en-US')} audit records check out.`);
    const other = otherConnection(join(h.dir, 'ringup.db'));
    dropTriggers(other);
    other.prepare("UPDATE audit_log SET user_name = 'Someone else' WHERE seq = 1").run();
    expect(value(await h.call('audit:verify'))).toEqual({ ok: false, rowsChecked: 1, firstBadSeq: 1, sentence: 'Audit record 1 was changed or removed after it was written.' });
  });
});

import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CREDENTIALS_FILE, DATABASE_FILE } from '../../electron/gateway/engine';
import { defaultModules } from '../../electron/gateway/engine-modules';
import { openDatabase, type Db } from '../../electron/gateway/framework/database';
import { currentVersion, migrate, sortedMigrations, type Migration } from '../../electron/gateway/framework/migrations';
import { TestEngine } from './helpers/engine-fixture';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'ringup-mig-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const all = (): Migration[] => defaultModules().flatMap((m) => m.migrations ?? []);

function schemaOf(db: Db): string[] {
  return (db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as { type: string; name: string; sql: string | null }[]).map(
    (r) => `${r.type} ${r.name} ${r.sql ?? ''}`,
  );
}

describe('migrations', () => {
  it('build the latest schema from an empty database', () => {
    const db = openDatabase(join(tempDir(), 'a.sqlite'));
    const ran = migrate(db, all());
    expect(ran).toEqual(sortedMigrations(all()).map((m) => m.version));
    expect(currentVersion(db)).toBe(Math.max(...ran));
    expect(migrate(db, all())).toEqual([]);
    expect((db.pragma('integrity_check') as { integrity_check: string }[])[0]!.integrity_check).toBe('ok');
    db.close();
  });

  it('migrate every earlier version to the same latest schema', () => {
    const fresh = openDatabase(join(tempDir(), 'fresh.sqlite'));
    migrate(fresh, all());
    const target = schemaOf(fresh);
    fresh.close();
    const versions = sortedMigrations(all()).map((m) => m.version);
    for (const v of [0, ...versions.slice(0, -1)]) {
      const db = openDatabase(join(tempDir(), `from-${v}.sqlite`));
      migrate(db, all(), v);
      expect(currentVersion(db)).toBe(v);
      const rest = migrate(db, all());
      expect(rest).toEqual(versions.filter((x) => x > v));
      expect(schemaOf(db)).toEqual(target);
      db.close();
    }
  });

  it('refuses two migrations with the same version', () => {
    const m: Migration = { version: 1, module: 'x', name: 'dup', up: () => {} };
    expect(() => sortedMigrations([...all(), m])).toThrow(/used twice/);
  });

  it('runs a migration added below an already-applied version', () => {
    const db = openDatabase(join(tempDir(), 'gap.sqlite'));
    const late: Migration = { version: 150, module: 'other', name: 'later', up: (d) => d.exec('CREATE TABLE later_table (id INTEGER)') };
    migrate(db, [...all(), late]);
    const gap: Migration = { version: 90, module: 'merchant', name: 'gap', up: (d) => d.exec('CREATE TABLE gap_table (id INTEGER)') };
    expect(migrate(db, [...all(), late, gap])).toEqual([90]);
    db.close();
  });
});

describe('restart', () => {
  it('keeps data and credentials across restarts; credentials.json is 0600 with exactly the documented keys', async () => {
    const dataDir = tempDir();
    const first = await TestEngine.start({ dataDir });
    const credPath = join(dataDir, CREDENTIALS_FILE);
    const file = JSON.parse(readFileSync(credPath, 'utf8')) as Record<string, string>;
    expect(Object.keys(file).sort()).toEqual(
      [
        'ach_product_transaction_id', 'base_url', 'cc_product_transaction_id', 'developer_id', 'location_id', 'user_api_key', 'user_id',
        // OAuth/SSO module
        'auth_url', 'oauth', 'login', 'developer_encryption_key',
      ].sort(),
    );
    expect(file.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
    expect(statSync(credPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, DATABASE_FILE)).mode & 0o777).toBe(0o600);
    const created = await first.post('/contacts', { contact: { location_id: first.locationId, last_name: 'Durable' } });
    expect(created.status).toBe(201);
    const creds = first.creds;
    await first.close(false);

    const second = await TestEngine.start({ dataDir });
    expect(second.creds).toEqual(creds);
    const again = await second.get(`/contacts/${created.body.contact.id}`);
    expect(again.status).toBe(200);
    expect(again.body.contact.last_name).toBe('Durable');
    const me = await second.get('/users/me');
    expect(me.body.user.user_type_id).toBe(250);
    const loc = await second.get(`/locations/${second.locationId}?expand=product_transactions`);
    expect(loc.body.location.name).toBe('Demo Store');
    expect(loc.body.location.default_cc).toBe(second.engine.credentials.cc_product_transaction_id);
    expect(loc.body.location.default_ach).toBe(second.engine.credentials.ach_product_transaction_id);
    const pts = loc.body.location.product_transactions as { id: string; payment_method: string; level3_allow: boolean }[];
    expect(pts.find((p) => p.payment_method === 'cc')?.level3_allow).toBe(true);
    expect(pts.find((p) => p.payment_method === 'ach')).toBeTruthy();
    const terminals = await second.get('/terminals?expand=terminal_application,terminal_manufacturer');
    expect(terminals.body.terminals).toHaveLength(1);
    expect(terminals.body.terminals[0].terminal_application.title).toContain('BroadPOS');
    await second.close(false);

    const db = openDatabase(join(dataDir, DATABASE_FILE));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('reset() wipes records and re-seeds with the same credentials', async () => {
    const t = await TestEngine.start();
    await t.post('/tags', { tag: { title: 'gone', location_id: t.locationId } });
    expect((await t.get('/tags')).body.meta.pagination.totalCount).toBe(1);
    t.engine.reset();
    expect((await t.get('/tags')).body.meta.pagination.totalCount).toBe(0);
    expect((await t.get('/scannermodels')).body.meta.pagination.totalCount).toBe(4);
    expect((await t.get('/users/me')).status).toBe(200);
    await t.close();
  });
});

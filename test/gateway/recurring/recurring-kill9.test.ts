/**
 * A recurring run is never charged twice, even across a kill -9. The real standalone
 * engine (build/node/gateway-cli.mjs) runs in a child process on port 0; 1,500 recurrings
 * fall due at once (the sandbox clock's advance runs them), the engine is SIGKILLed while
 * the runs are being committed, then restarted on the same data folder, where the
 * scheduler's start-up pass catches up the rest. Every recurring ends with exactly one
 * charge for its run date, every charge has its claim (recurring_runs) and every claim its
 * charge, and next_run_date moved exactly one month.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEngineBundle, startStandaloneEngine } from '../../helpers/standalone-engine';

const COUNT = 1500;


const nyToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

let dir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  buildEngineBundle();
  dir = mkdtempSync(join(tmpdir(), 'ringup-recurring-kill9-'));
}, 120_000);

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('recurring runs under kill -9', () => {
  it('charges each due run exactly once across a kill and a restart', async () => {
    const dataDir = join(dir, 'engine');
    const first = await startStandaloneEngine(dataDir);
    children.push(first.child);
    const c = first.creds;
    const origin = c.base_url.replace(/\/v2$/, '');
    const headers = { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) => (await fetch(origin + path, { method: 'POST', headers, body: JSON.stringify(body) })).json() as Promise<Record<string, Record<string, string>>>;
    const contact = await post('/v2/contacts', { contact: { location_id: c.location_id, last_name: 'Doe' } });
    const vault = await post('/v2/accountvaults', { accountvault: { location_id: c.location_id, contact_id: contact.contact?.id, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1239' } });
    const today = nyToday();
    const ids: string[] = [];
    for (let i = 0; i < COUNT; i += 100) {
      const batch = await Promise.all(Array.from({ length: Math.min(100, COUNT - i) }, () =>
        post('/v2/recurrings', { recurring: { location_id: c.location_id, account_vault_id: vault.accountvault?.id, product_transaction_id: c.cc_product_transaction_id, transaction_amount: '10.00', interval: 1, interval_type: 'm', start_date: today } })));
      ids.push(...batch.map((b) => b.recurring?.id as string));
    }
    expect(ids.filter(Boolean)).toHaveLength(COUNT);

    // Everything is due: the advance runs it; kill the engine while the runs are committing.
    const advancing = fetch(`${origin}/sandbox/clock/advance`, { method: 'POST', headers, body: JSON.stringify({ clock: { location_id: c.location_id, seconds: 1 } }) }).catch(() => null);
    const dbFile = join(dataDir, 'gateway.sqlite');
    const reader = new Database(dbFile, { readonly: true, fileMustExist: true });
    const charged = () => (reader.prepare('SELECT COUNT(*) AS n FROM recurring_runs').get() as { n: number }).n;
    for (let i = 0; i < 2000 && charged() < 200; i++) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    await advancing;
    const atKill = charged();
    reader.close();
    expect(atKill).toBeGreaterThanOrEqual(200);
    expect(atKill).toBeLessThan(COUNT); // killed mid-way, so the restart has work to catch up

    // Restart: the scheduler's start-up pass charges what is left.
    const second = await startStandaloneEngine(dataDir);
    children.push(second.child);
    const db = new Database(dbFile, { readonly: true, fileMustExist: true });
    const runs = () => (db.prepare('SELECT COUNT(*) AS n FROM recurring_runs').get() as { n: number }).n;
    for (let i = 0; i < 1200 && runs() < COUNT; i++) await new Promise((r) => setTimeout(r, 25));
    // The timer and an explicit advance find nothing more to do.
    const h2 = { ...headers, 'developer-id': second.creds.developer_id, 'user-id': second.creds.user_id, 'user-api-key': second.creds.user_api_key };
    await fetch(`${second.creds.base_url.replace(/\/v2$/, '')}/sandbox/clock/advance`, { method: 'POST', headers: h2, body: JSON.stringify({ clock: { location_id: c.location_id, seconds: 1 } }) });

    expect(runs()).toBe(COUNT);
    const perRecurring = db.prepare(`SELECT json_extract(doc, '$.recurring_id') AS rid, COUNT(*) AS n FROM transactions WHERE json_extract(doc, '$.trx_source_id') = 13 GROUP BY rid`).all() as { rid: string; n: number }[];
    expect(perRecurring).toHaveLength(COUNT);
    expect(perRecurring.filter((r) => r.n !== 1)).toEqual([]);
    // Claim ⇔ charge: the same transaction on both sides, dated the run date.
    const orphanCharges = db.prepare(`SELECT COUNT(*) AS n FROM transactions t WHERE json_extract(t.doc, '$.trx_source_id') = 13
      AND NOT EXISTS (SELECT 1 FROM recurring_runs r WHERE r.transaction_id = t.id)`).get() as { n: number };
    expect(orphanCharges.n).toBe(0);
    const orphanClaims = db.prepare('SELECT COUNT(*) AS n FROM recurring_runs r WHERE r.run_date != ? OR NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = r.transaction_id)').get(today) as { n: number };
    expect(orphanClaims.n).toBe(0);
    const next = db.prepare('SELECT next_run_date AS d, COUNT(*) AS n FROM recurrings GROUP BY d').all() as { d: string; n: number }[];
    expect(next).toHaveLength(1);
    expect(next[0]?.n).toBe(COUNT);
    expect((next[0]?.d ?? '') > today).toBe(true);
    db.close();
    second.child.kill('SIGTERM');
  }, 90_000);
});

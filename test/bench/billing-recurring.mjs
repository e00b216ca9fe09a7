#!/usr/bin/env node
// The recurring half of `npm run bench:billing`: recurring charges per second when 10,000
// recurrings fall due at once, against the real engine (build/node/gateway-cli.mjs, the
// same engine the app embeds) in its own process, every charge durable (each run's
// transaction, claim and next date are committed and fsynced before the run counts).
//   baseline: the engine's direct sale rate in the same run — POST /v2/transactions sales
//             from the same saved card at 32 connections (autocannon);
//   measured: 10,000 recurrings created with start_date tomorrow (so the engine's own
//             timer cannot start them early), then one POST /sandbox/clock/advance of a
//             day makes them all due and runs them; the answer comes only when
//             every run is committed, so charges/s = 10,000 / its duration. The database is
//             then checked: exactly one charge per recurring.
// Target: ≥ 1,000 recurring charges/s. Exports `benchRecurring(opts)` (returns the
// figures) for the combined billing bench; run alone it prints a table and PASS/FAIL.
// Options: --count N (default 10000), --duration S (baseline seconds, default 5), --keep.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { startEngine, stop } from './standalone-engine.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const RECURRING_TARGET_PER_SEC = 1000;
const log = (m) => process.stderr.write(`${m}\n`);



const nyTomorrow = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + 86_400_000));

/**
 * Measures the direct sale rate and the recurring run rate in one engine.
 * @returns {Promise<{ count: number, seconds: number, perSec: number, salesPerSec: number, target: number, pass: boolean, exactlyOnce: boolean }>}
 */
export async function benchRecurring({ count = 10_000, duration = 5, keep = false, build = true } = {}) {
  if (build) execFileSync(process.execPath, [join(root, 'electron/tools/build.mjs'), '--only', 'node', '--quiet'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'ringup-bench-recurring-'));
  const { child, creds: c } = await startEngine(dir);
  try {
    const origin = c.base_url.replace(/\/v2$/, '');
    const headers = { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key, 'content-type': 'application/json' };
    const post = async (path, body) => (await fetch(origin + path, { method: 'POST', headers, body: JSON.stringify(body) })).json();
    const contact = await post('/v2/contacts', { contact: { location_id: c.location_id, last_name: 'Bench' } });
    const vault = await post('/v2/accountvaults', { accountvault: { location_id: c.location_id, contact_id: contact.contact.id, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1239' } });
    const vaultId = vault.accountvault.id;

    log(`baseline: direct vault sales, 32 connections, ${duration} s`);
    const sales = await new Promise((resolve, reject) => {
      autocannon({
        url: `${c.base_url}/transactions`, method: 'POST', headers, connections: 32, pipelining: 1, duration,
        body: JSON.stringify({ transaction: { action: 'sale', account_vault_id: vaultId, location_id: c.location_id, transaction_amount: '10.00' } }),
      }, (err, res) => (err ? reject(err) : resolve(res)));
    });
    const salesPerSec = sales.requests.average;

    log(`creating ${count} recurrings due tomorrow`);
    const tomorrow = nyTomorrow();
    for (let i = 0; i < count; i += 200) {
      await Promise.all(Array.from({ length: Math.min(200, count - i) }, () =>
        post('/v2/recurrings', { recurring: { location_id: c.location_id, account_vault_id: vaultId, product_transaction_id: c.cc_product_transaction_id, transaction_amount: '10.00', interval: 1, interval_type: 'm', start_date: tomorrow } })));
    }
    const db = new Database(join(dir, 'gateway.sqlite'), { readonly: true, fileMustExist: true });
    const before = db.prepare('SELECT COUNT(*) AS n FROM recurring_runs').get().n;

    log('running them: POST /sandbox/clock/advance');
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${origin}/sandbox/clock/advance`, { method: 'POST', headers, body: JSON.stringify({ clock: { location_id: c.location_id, seconds: 86_400 } }) });
    await res.text();
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const runs = db.prepare('SELECT COUNT(*) AS n FROM recurring_runs').get().n - before;
    const dup = db.prepare(`SELECT COUNT(*) AS n FROM (SELECT json_extract(doc, '$.recurring_id') AS r FROM transactions WHERE json_extract(doc, '$.trx_source_id') = 13 GROUP BY r HAVING COUNT(*) > 1)`).get().n;
    const charges = db.prepare(`SELECT COUNT(*) AS n FROM transactions WHERE json_extract(doc, '$.trx_source_id') = 13`).get().n;
    db.close();
    const exactlyOnce = res.status === 200 && dup === 0 && charges === count;
    const perSec = runs / seconds;
    return { count, runs, seconds, perSec, salesPerSec, target: RECURRING_TARGET_PER_SEC, exactlyOnce, pass: exactlyOnce && runs === count && perSec >= RECURRING_TARGET_PER_SEC };
  } finally {
    await stop(child);
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

export function formatRecurring(r) {
  return [
    ['measure', 'value', 'target', 'result'],
    ['direct vault sales/s (baseline, 32 conn.)', r.salesPerSec.toFixed(0), '', ''],
    [`recurring charges/s (${r.count} due at once)`, r.perSec.toFixed(0), `>= ${r.target}`, r.pass ? 'PASS' : 'FAIL'],
    ['  ratio to direct sales', `${((100 * r.perSec) / r.salesPerSec).toFixed(0)}%`, '', ''],
    ['  time for all runs (s)', r.seconds.toFixed(2), '', ''],
    ['  one charge per recurring', r.exactlyOnce ? 'yes' : 'NO', 'yes', r.exactlyOnce ? 'PASS' : 'FAIL'],
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  const opt = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
  const r = await benchRecurring({ count: Number(opt('count', '10000')), duration: Number(opt('duration', '5')), keep: argv.includes('--keep') });
  const lines = formatRecurring(r);
  const w = lines[0].map((_, i) => Math.max(...lines.map((l) => String(l[i]).length)));
  console.log('');
  for (const l of lines) console.log(l.map((cell, i) => String(cell).padEnd(w[i])).join('  '));
  console.log(`\n(machine: ${cpus().length} cores)`);
  console.log(r.pass ? 'PASS' : 'FAIL');
  process.exitCode = r.pass ? 0 : 1;
}

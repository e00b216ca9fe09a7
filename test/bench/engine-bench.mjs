#!/usr/bin/env node
// `npm run bench:engine` — the engine's speed, measured in one run on this machine:
//   1. approved card sales: throughput and p50/p99 latency at 32 connections (autocannon),
//      against the real standalone engine (build/node/gateway-cli.mjs) in its own process,
//      writes durable (every 2xx is on disk: group commit and fdatasync);
//   2. the ceiling they are judged against: a bare fastify POST route, measured in rounds
//      that alternate with the sales' (both servers up, one loaded at a time), so a change
//      in what else the machine is doing weighs on both; each round's share is its sales
//      over its ceiling, and the median round is the result;
//   3. a raw better-sqlite3 durable insert loop (one commit per row, and 32 rows per commit);
//   4. with 1,000,000 transactions stored: GET page_size=5000 and a filtered page of 20
//      (last_four + amount range), median of several runs.
// Prints a table with the targets and PASS/FAIL. Options: --duration S (per round, default 4),
// --rounds N (default 7), --rows N (default 1000000), --keep (keep the data folder).
// Seven shorter rounds rather than three of 6 s: on a shared 2-core machine one round's share
// moved between 0.25 and 0.43 for the same build, and the median of three was a coin toss.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { startEngine, stop } from './standalone-engine.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const DURATION = Number(opt('duration', '4'));
const ROUNDS = Number(opt('rounds', '7'));
const ROWS = Number(opt('rows', '1000000'));
const KEEP = argv.includes('--keep');
const CONNECTIONS = 32;

// Sales are judged against the bare fastify POST ceiling measured in the same run (the
// machine's speed cancels out): at least 0.35 of it, p99 within 10 ms (issue 19).
const TARGETS = { ceilingShare: 0.35, p99Ms: 10, page5000Ms: 150, filteredMs: 10 };

const log = (m) => process.stderr.write(`${m}\n`);



function runCannon(opts) {
  return new Promise((resolve, reject) => {
    const inst = autocannon({ connections: CONNECTIONS, pipelining: 1, duration: DURATION, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
    autocannon.track(inst, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false, outputStream: process.stderr });
  });
}

/**
 * CPU seconds a child process has used (all its threads, user + system), from /proc; null
 * where there is no /proc. CPU per request is the figure that moves least with what else
 * runs on the machine, and it says where a target stands: the share of the ceiling needs the
 * engine's CPU per sale within a few times the bare route's.
 */
function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100 on Linux)
  } catch {
    return null;
  }
}

/** Runs the load and returns autocannon's result with the child's CPU µs per request. */
async function cannonWithCpu(pid, opts) {
  const before = cpuSecondsOf(pid);
  const res = await runCannon(opts);
  const after = cpuSecondsOf(pid);
  res.cpuUsPerRequest = before === null || after === null ? null : ((after - before) * 1e6) / res.requests.total;
  return res;
}

function headersOf(c) {
  return { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key, 'content-type': 'application/json' };
}

/** The ceiling: a bare fastify POST route in its own process; answers the child and its load options. */
async function startBareFastify() {
  const code = `
    const Fastify = (await import('fastify')).default;
    const app = Fastify({ logger: false });
    app.post('/v2/transactions', async (req, reply) => reply.code(201).send({ transaction: { id: 'x', status_id: 101, echo: req.body.transaction.transaction_amount } }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    console.log(app.server.address().port);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  const load = {
    url: `http://127.0.0.1:${port}/v2/transactions`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ transaction: { action: 'sale', transaction_amount: '10.00' } }),
  };
  return { child, load };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function rawSqlite(dir) {
  const db = new Database(join(dir, 'raw.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, location_id TEXT, amount INTEGER, created_ts INTEGER, doc TEXT)');
  const ins = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?)');
  const doc = 'x'.repeat(1800);
  const n1 = 2000;
  let t = performance.now();
  for (let i = 0; i < n1; i++) ins.run(randomUUID(), 'loc', i, i, doc);
  const perRow = n1 / ((performance.now() - t) / 1000);
  const batch = db.transaction((k) => {
    for (let i = 0; i < k; i++) ins.run(randomUUID(), 'loc', i, i, doc);
  });
  const batches = 500;
  t = performance.now();
  for (let i = 0; i < batches; i++) batch(32);
  const batched = (batches * 32) / ((performance.now() - t) / 1000);
  db.close();
  return { perRow, batched };
}

/** Bulk-loads `rows` transactions (copies of a real sale's record, stored as the engine stores it, doc_keys included, with varied id, amount, last four, time). */
function seedTransactions(dataDir, creds, rows) {
  const db = new Database(join(dataDir, 'gateway.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const sample = db.prepare("SELECT * FROM transactions WHERE status_id = 101 AND payment_method = 'cc' LIMIT 1").get();
  const base = JSON.parse(sample.doc);
  // Engines before migration 107 store whole records and have no doc_keys (the bench measures older commits too).
  const keys = 'doc_keys' in sample ? ', doc_keys' : '';
  const ins = db.prepare(`INSERT INTO transactions (id, location_id, product_transaction_id, transaction_api_id, payment_method, action, type_id, status_id,
      reason_code_id, amount, auth_amount, refunded, first_six, last_four, brand, exp_date, account_vault_id, contact_id, previous_transaction_id, batch_id,
      settled, created_ts, modified_ts, doc${keys}) VALUES (?, ?, ?, NULL, 'cc', 'sale', 20, 101, 1000, ?, ?, 0, ?, ?, 'visa', ?, NULL, NULL, NULL, ?, 0, ?, ?, ?${keys ? ', ?' : ''})`);
  const start = Math.floor(Date.now() / 1000) - 400 * 86400;
  const t0 = performance.now();
  const CHUNK = 50_000;
  for (let done = 0; done < rows; done += CHUNK) {
    db.transaction(() => {
      for (let i = done; i < Math.min(rows, done + CHUNK); i++) {
        const id = randomUUID();
        const cents = 100 + ((i * 7919) % 99_900);
        const last4 = String((i * 31) % 10_000).padStart(4, '0');
        const ts = start + Math.floor((i * 400 * 86400) / rows);
        base.id = id;
        base.transaction_amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        base.auth_amount = base.transaction_amount;
        base.last_four = last4;
        base.created_ts = ts;
        base.modified_ts = ts;
        const args = [id, creds.location_id, creds.cc_product_transaction_id, cents, cents, base.first_six, last4, base.exp_date, sample.batch_id, ts, ts, JSON.stringify(base)];
        ins.run(...(keys ? [...args, sample.doc_keys] : args));
      }
    })();
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return (performance.now() - t0) / 1000;
}

async function timeGet(url, headers, runs = 9) {
  const times = [];
  let bytes = 0;
  let count = 0;
  for (let i = 0; i < runs + 1; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    const text = await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`GET ${url} → ${res.status} ${text.slice(0, 200)}`);
    if (i > 0) times.push(ms); // first run warms caches
    bytes = text.length;
    count = JSON.parse(text).transactions.length;
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], bytes, count };
}

async function main() {
  log('building the standalone engine…');
  execFileSync(process.execPath, [join(root, 'electron/tools/build.mjs'), '--only', 'node', '--quiet'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'ringup-bench-'));
  const dataDir = join(dir, 'engine');
  const results = {};
  try {
    // 1 and 2. approved sales, and the ceiling, in alternating rounds
    let { child, creds } = await startEngine(dataDir);
    const headers = headersOf(creds);
    const saleBody = JSON.stringify({ transaction: { action: 'sale', payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '10.00', location_id: creds.location_id } });
    const probe = await fetch(`${creds.base_url}/transactions`, { method: 'POST', headers, body: saleBody });
    const probeBody = await probe.json();
    if (probe.status !== 201 || probeBody.transaction.status_id !== 101) throw new Error(`probe sale failed: ${probe.status} ${JSON.stringify(probeBody)}`);
    const bare = await startBareFastify();
    const salesLoad = { url: `${creds.base_url}/transactions`, method: 'POST', headers, body: saleBody };
    log('warm-up…');
    await runCannon({ ...salesLoad, duration: 2 });
    await runCannon({ ...bare.load, duration: 2 });
    const rounds = [];
    for (let r = 1; r <= ROUNDS; r++) {
      log(`round ${r} of ${ROUNDS}: approved sales, ${CONNECTIONS} connections, ${DURATION}s…`);
      const sales = await cannonWithCpu(child.pid, salesLoad);
      log(`round ${r} of ${ROUNDS}: the bare fastify route, ${DURATION}s…`);
      const ceiling = await cannonWithCpu(bare.child.pid, bare.load);
      rounds.push({ sales, ceiling, share: sales.requests.average / ceiling.requests.average });
    }
    await stop(bare.child);
    await stop(child);
    // The median round by its share; its own figures are printed beside it.
    const mid = [...rounds].sort((a, b) => a.share - b.share)[Math.floor(rounds.length / 2)];
    const non2xx = rounds.reduce((n, r) => n + r.sales.non2xx + r.sales.errors, 0);
    results.rounds = rounds.map((r) => r.share);
    results.sales = { rps: mid.sales.requests.average, p50: mid.sales.latency.p50, p99: median(rounds.map((r) => r.sales.latency.p99)), non2xx, total: rounds.reduce((n, r) => n + r.sales.requests.total, 0), cpuUs: mid.sales.cpuUsPerRequest };
    results.bare = { rps: mid.ceiling.requests.average, p50: mid.ceiling.latency.p50, p99: mid.ceiling.latency.p99, cpuUs: mid.ceiling.cpuUsPerRequest };
    results.share = mid.share;

    // 3. raw SQLite
    log('baseline: raw better-sqlite3 durable inserts…');
    results.raw = rawSqlite(dir);

    // 4. a million stored transactions
    log(`seeding ${ROWS} transactions…`);
    const seedSeconds = seedTransactions(dataDir, creds, ROWS);
    ({ child, creds } = await startEngine(dataDir));
    const h2 = headersOf(creds);
    const page = await timeGet(`${creds.base_url}/transactions?page_size=5000`, h2);
    const filtered = await timeGet(`${creds.base_url}/transactions?last_four=0042&transaction_amount=10.00|600.00&page_size=20`, h2);
    const filteredSort = await timeGet(`${creds.base_url}/transactions?created_ts=last%2030%20days&last_four=1234&page_size=20`, h2);
    await stop(child);
    results.lists = { seedSeconds, page, filtered, filteredSort };
  } finally {
    if (!KEEP) rmSync(dir, { recursive: true, force: true });
    else log(`data kept in ${dir}`);
  }

  const f = (n, d = 0) => Number(n).toFixed(d);
  const pass = (ok) => (ok ? 'PASS' : 'FAIL');
  const r = results;
  const lines = [
    ['Measure', 'Result', 'Target', ''],
    ['Approved sales / s (32 conn, durable), median round', f(r.sales.rps), '', ''],
    ['Baseline: bare fastify POST / s (the ceiling), same round', f(r.bare.rps), '', `p50 ${f(r.bare.p50, 1)} ms, p99 ${f(r.bare.p99, 1)} ms`],
    ['Approved sales as a share of the ceiling, median round', f(r.share, 3), `≥ ${TARGETS.ceilingShare}`, pass(r.share >= TARGETS.ceilingShare && r.sales.non2xx === 0)],
    ['  each round (sales / ceiling)', r.rounds.map((x) => f(x, 3)).join(' '), '', ''],
    ['Engine CPU per sale, all threads (µs)', r.sales.cpuUs === null ? 'n/a' : f(r.sales.cpuUs, 1), '', r.bare.cpuUs === null ? '' : `bare route: ${f(r.bare.cpuUs, 1)} µs a request`],
    ['Approved sale p50 latency (ms)', f(r.sales.p50, 1), '', ''],
    ['Approved sale p99 latency (ms), median of the rounds', f(r.sales.p99, 1), `≤ ${TARGETS.p99Ms}`, pass(r.sales.p99 <= TARGETS.p99Ms)],
    ['Sales answered non-2xx / errors', String(r.sales.non2xx), '0', pass(r.sales.non2xx === 0)],
    ['Baseline: raw SQLite durable insert / s, commit per row', f(r.raw.perRow), '', ''],
    ['Baseline: raw SQLite durable insert / s, 32 per commit', f(r.raw.batched), '', ''],
    [`Seeded transactions (${ROWS}) in s`, f(r.lists.seedSeconds, 1), '', ''],
    [`GET page_size=5000 (${r.lists.page.count} records, ${f(r.lists.page.bytes / 1e6, 1)} MB), median ms`, f(r.lists.page.median, 1), `≤ ${TARGETS.page5000Ms}`, pass(r.lists.page.median <= TARGETS.page5000Ms && r.lists.page.count === 5000)],
    [`GET filtered page of 20 (last_four + amount range: ${r.lists.filtered.count} records), median ms`, f(r.lists.filtered.median, 1), `≤ ${TARGETS.filteredMs}`, pass(r.lists.filtered.median <= TARGETS.filteredMs)],
    [`GET filtered page of 20 (created_ts last 30 days + last_four: ${r.lists.filteredSort.count}), median ms`, f(r.lists.filteredSort.median, 1), `≤ ${TARGETS.filteredMs}`, pass(r.lists.filteredSort.median <= TARGETS.filteredMs)],
  ];
  const w = [0, 1, 2, 3].map((i) => Math.max(...lines.map((l) => l[i].length)));
  console.log('');
  for (const l of lines) console.log(l.map((c, i) => c.padEnd(w[i])).join('  '));
  console.log(`\n(${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION}s per load, ${r.sales.total} sales measured; machine: ${(await import('node:os')).cpus().length} cores)`);
}

main().catch((err) => {
  console.error(`bench failed: ${err?.stack ?? err}`);
  process.exit(1);
});

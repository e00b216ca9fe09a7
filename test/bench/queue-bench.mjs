#!/usr/bin/env node
// `npm run bench:queue` — the offline store-and-forward queue (issue 13), measured in one run:
//   1. durable enqueue latency (p50 / p99): 10,000 sales queued one by one through the core's
//      OfflineQueue on a real SQLite file (synchronous = FULL: each enqueue is an fsynced commit,
//      card data AES-256-GCM encrypted, rules checked in the same transaction); each is then
//      acknowledged as its screen does once "Approved offline" shows (issue 20, point 3: its own
//      commit, timed apart, since the cashier does not wait for it);
//   2. baseline: the engine's direct sale rate, measured the way bench:engine measures it —
//      approved card sales POSTed by autocannon at 32 connections for --duration seconds,
//      against the real standalone engine in its own process;
//      For reference, the same with the body a forward sends (a transaction_api_id each, CVV, ZIP).
//   3. for reference: the same sales POSTed by the core's own GatewayClient at the app's usual
//      4 in flight (half before the forwarding and half after, so both see the same database sizes);
//   4. the forwarding rate: the core's OfflineForwarder draining those 10,000 queued sales to the
//      same engine (each with its transaction_api_id; results group-committed, card data erased),
//      as the app does: a backlog this large is a bulk drain, at up to 32 in flight, over the
//      forwarder's node:http transport.
// Targets: enqueue p99 ≤ 5 ms; forwarding ≥ half the engine's direct rate (2). Prints PASS/FAIL.
// Options: --sales N (default 10000), --parallel P (default 4, the app's), --bulk B (in flight for
// a bulk drain, default 32, the app's; --bulk 4 is the forwarder before bulk drains), --fetch (the
// client over fetch instead of the forwarder's node:http transport), --duration S (the direct-rate
// run, default 5), --keep.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import Database from 'better-sqlite3';
import { startEngine } from './standalone-engine.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const SALES = Number(opt('sales', '10000'));
const PARALLEL = Number(opt('parallel', '4'));
const BULK = Number(opt('bulk', '32'));
const DURATION = Number(opt('duration', '5'));
const CONNECTIONS = 32;
const KEEP = argv.includes('--keep');
const TARGETS = { enqueueP99Ms: 5, forwardShare: 0.5 };
const log = (m) => process.stderr.write(`${m}\n`);


const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };

async function main() {
  execFileSync(process.execPath, [join(root, 'electron/tools/build.mjs'), '--only', 'node', '--quiet'], { stdio: 'inherit' });
  const libFile = join(root, 'build/bench/queue-bench-lib.mjs');
  await build({ absWorkingDir: root, entryPoints: ['test/bench/queue-bench-lib.ts'], outfile: libFile, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' });
  const lib = await import(pathToFileURL(libFile).href);

  const dir = mkdtempSync(join(tmpdir(), 'ringup-queue-bench-'));
  const { child, creds } = await startEngine(join(dir, 'engine'));
  try {
    const auth = { developerId: creds.developer_id, userId: creds.user_id, userApiKey: creds.user_api_key };
    // The forwarder's client as the app makes it (app-core.ts): node:http transport. --fetch for the default transport.
    const client = new lib.GatewayClient({ baseUrl: creds.base_url, auth, timeoutMs: 30_000, transport: argv.includes('--fetch') ? 'fetch' : 'node-http' });
    const rules = { ...lib.DEFAULT_STORE_SETTINGS, offlineAllowKeyed: true, offlinePaymentCapCents: 100_000, offlineTotalCapCents: 99_999_999 };

    // 0. Baseline for the enqueue: the disk's floor — a bare better-sqlite3 insert, one fsynced commit per row (WAL, synchronous = FULL).
    const raw = new Database(join(dir, 'raw.db'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = FULL');
    raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, ref TEXT NOT NULL, cents INTEGER NOT NULL, blob BLOB)');
    const ins = raw.prepare('INSERT INTO t (ref, cents, blob) VALUES (?, ?, ?)');
    const rawLat = [];
    const blob = Buffer.alloc(120, 1);
    for (let i = 0; i < SALES; i++) {
      const t0 = process.hrtime.bigint();
      ins.run(`raw-${i}`, 1_000, blob);
      rawLat.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    raw.close();
    rawLat.sort((a, b) => a - b);

    // 1. Durable enqueue.
    const db = lib.openPosDatabase(join(dir, 'counter'));
    // As the app runs it (app-core.ts): WAL checkpoints on a worker thread, not inside a commit.
    const stopCheckpointer = await lib.startPosCheckpointer(db, join(dir, 'counter'));
    const queue = new lib.OfflineQueue(db, Buffer.alloc(32, 7));
    const lat = [];
    const ackLat = [];
    log(`queueing ${SALES} sales …`);
    for (let i = 0; i < SALES; i++) {
      const t0 = process.hrtime.bigint();
      const r = queue.enqueue(
        {
          clientRef: `bench-q-${i}`,
          amountCents: 1_000 + (i % 50), // $10.00–$10.49: clear of the sandbox amounts that decline or answer slowly
          taxCents: 0,
          tipCents: 0,
          card,
          clerk: { id: 'bench', name: 'Bench', number: 'bench', role: 'cashier' },
          locationId: creds.location_id,
          productTransactionId: null,
          collectsRestOf: null,
          keyed: true,
        },
        rules,
      );
      lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (!r.ok) throw new Error(r.message);
      // The screen has shown "Approved offline" and acknowledges the sale (issue 20, point 3): its own fsynced commit, after the answer.
      const t1 = process.hrtime.bigint();
      queue.acknowledge(`bench-q-${i}`);
      ackLat.push(Number(process.hrtime.bigint() - t1) / 1e6);
    }
    lat.sort((a, b) => a - b);
    ackLat.sort((a, b) => a - b);
    const enqueue = { p50: pct(lat, 50), p99: pct(lat, 99), max: lat[lat.length - 1] };

    // 2. Baseline: the engine's direct sale rate, as bench:engine measures it (the same sale body, 32 connections).
    log(`direct: the engine's sale rate, ${CONNECTIONS} connections, ${DURATION}s …`);
    const headers = { 'developer-id': creds.developer_id, 'user-id': creds.user_id, 'user-api-key': creds.user_api_key, 'content-type': 'application/json' };
    const saleBody = JSON.stringify({ transaction: { action: 'sale', payment_method: 'cc', account_number: card.number, exp_date: card.expiry, transaction_amount: '10.00', location_id: creds.location_id } });
    const cannon = (duration) =>
      new Promise((resolve, reject) => autocannon({ url: `${creds.base_url}/transactions`, method: 'POST', headers, body: saleBody, connections: CONNECTIONS, pipelining: 1, duration }, (err, res) => (err ? reject(err) : resolve(res))));
    await cannon(1); // warm-up
    const engineRun = await cannon(DURATION);
    if (engineRun.non2xx + engineRun.errors > 0) throw new Error(`direct sales answered ${engineRun.non2xx} non-2xx, ${engineRun.errors} errors`);
    const engineRate = engineRun.requests.average;
    // For reference: the same, with the body a forward sends (its own transaction_api_id each, CVV, ZIP, clerk): heavier for the engine.
    let ac = 0;
    const forwardBody = await new Promise((resolve, reject) =>
      autocannon(
        {
          url: `${creds.base_url}/transactions`,
          method: 'POST',
          headers,
          connections: CONNECTIONS,
          pipelining: 1,
          duration: DURATION,
          requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ transaction: { action: 'sale', payment_method: 'cc', location_id: creds.location_id, transaction_amount: '10.00', account_number: card.number, exp_date: card.expiry, cvv: card.cvv, billing_zip: card.zip, transaction_api_id: `bench-ac-${ac++}`, clerk_number: 'bench' } }) }) }],
        },
        (err, res) => (err ? reject(err) : resolve(res)),
      ),
    );
    const engineForwardBodyRate = forwardBody.requests.average;

    // 3. For reference: the same sales straight to the engine through this app's client at its usual parallelism — half
    //    before the forwarding and half after it, so both see the engine's database at the same sizes.
    const direct = async (from, count) => {
      let next = from;
      const t = performance.now();
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          while (next < from + count) {
            const i = next++;
            await client.createTransaction({
              action: 'sale',
              payment_method: 'cc',
              location_id: creds.location_id,
              transaction_amount: ((1_000 + (i % 50)) / 100).toFixed(2),
              account_number: card.number,
              exp_date: card.expiry,
              cvv: card.cvv,
              billing_zip: card.zip,
              transaction_api_id: `bench-d-${i}`,
              clerk_number: 'bench',
            });
          }
        }),
      );
      return performance.now() - t;
    };
    const half = Math.floor(SALES / 2);
    log(`direct: ${half} sales at ${PARALLEL} in flight …`);
    const directMsA = await direct(0, half);

    // 4. Forwarding the queue (a bulk drain: at most BULK in flight).
    log(`forwarding ${SALES} queued sales at up to ${BULK} in flight …`);
    const forwarder = new lib.OfflineForwarder({ queue, client, settings: () => rules, parallelism: PARALLEL, bulkParallelism: BULK });
    const t2 = performance.now();
    await forwarder.kick();
    await forwarder.idle();
    const forwardRate = SALES / ((performance.now() - t2) / 1000);
    log(`direct: ${SALES - half} more sales …`);
    const directMsB = await direct(half, SALES - half);
    const directRate = SALES / ((directMsA + directMsB) / 1000);
    const st = forwarder.status();
    forwarder.stop();
    const left = db.prepare("SELECT COUNT(*) AS n FROM offline_queue WHERE state <> 'approved' OR card_blob IS NOT NULL").get().n;
    await stopCheckpointer();
    db.close();
    if (st.pendingCount !== 0 || left !== 0) throw new Error(`forwarding left ${st.pendingCount} pending, ${left} not approved/erased`);

    const pass = (ok) => (ok ? 'PASS' : 'FAIL');
    const enqOk = enqueue.p99 <= TARGETS.enqueueP99Ms;
    const fwdOk = forwardRate >= TARGETS.forwardShare * engineRate;
    const width = SALES >= 200 ? Math.max(PARALLEL, BULK) : PARALLEL; // the forwarder's bulk rule (offline-forwarder.ts)
    console.log(`\nOffline queue benchmark (${SALES} sales, engine in its own process)`);
    console.log(`  bare fsynced insert       p50 ${pct(rawLat, 50).toFixed(2)} ms   p99 ${pct(rawLat, 99).toFixed(2)} ms   (this disk's commit floor now)`);
    console.log(`  durable enqueue           p50 ${enqueue.p50.toFixed(2)} ms   p99 ${enqueue.p99.toFixed(2)} ms   max ${enqueue.max.toFixed(2)} ms   target p99 ≤ ${TARGETS.enqueueP99Ms} ms   ${pass(enqOk)}`);
    console.log(`  acknowledgement           p50 ${pct(ackLat, 50).toFixed(2)} ms   p99 ${pct(ackLat, 99).toFixed(2)} ms   (after "Approved offline" shows; not on the cashier's wait)`);
    console.log(`  engine direct sales       ${engineRate.toFixed(0)} /s   (baseline: ${CONNECTIONS} connections, as bench:engine measures it)`);
    console.log(`    with a forward's body   ${engineForwardBodyRate.toFixed(0)} /s   (reference: own transaction_api_id each, CVV, ZIP, clerk)`);
    console.log(`  app client, ${PARALLEL} in flight  ${directRate.toFixed(0)} /s   (reference: the same client and pace as a small forward)`);
    console.log(`  forwarding, ${width} in flight  ${forwardRate.toFixed(0)} /s   = ${((forwardRate / engineRate) * 100).toFixed(0)} % of the engine's direct rate   target ≥ ${TARGETS.forwardShare * 100} %   ${pass(fwdOk)}`);
    console.log(`  all ${SALES} forwarded, approved, card data erased`);
    process.exitCode = enqOk && fwdOk ? 0 : 1;
  } finally {
    child.kill('SIGTERM');
    if (!KEEP) rmSync(dir, { recursive: true, force: true });
    else log(`kept ${dir}`);
  }
}

main().catch((err) => {
  console.error(`bench:queue failed: ${err?.stack ?? err}`);
  process.exit(1);
});

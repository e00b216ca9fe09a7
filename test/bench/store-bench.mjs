#!/usr/bin/env node
// `npm run bench:store` — the store server and its registers (issue 24, point 7), measured in one run
// on a real PostgreSQL (Debian's, a temporary cluster), one store server process and three registers
// (node hosts, each with its core and SQLite), all on this machine:
//   1. push rate: events per second the store server takes from 3 registers pushing at once. The
//      pushers speak the wire as the register's sync does (store-bench-lib.ts): each joined with a
//      one-time code a real register made, pinned to the server's certificate, pushing its sales as
//      batches of SYNC_BATCH_MAX events (per sale a cart snapshot with lines and tenders, its cash
//      movement, audit row and stock movement), one batch in flight each, as the sync sends them.
//      Baseline, same run: the same rows INSERTed straight into a PostgreSQL table by 3 clients at
//      once (what the database alone takes), so a slow machine is seen as such.
//      For reference: the real registers' sync draining a backlog (each register cut off at its
//      proxy while it sells --backlog sales, then all three let through at once; the time includes
//      each sync's backoff before it tries again).
//   2. catalogue change to every register: a manager changes a price on register 1 (--changes N
//      times); timed from the change's answer until registers 2 and 3 both list the new price
//      (their catalogue:list, as the sale screen reads it, polled every 5 ms).
//   3. a register's sale time (a cash sale: open amount added, paid; both calls timed as the screen
//      makes them) with the store server reachable and with it cut off (the register's proxy black-
//      holes its traffic): two registers sell at the same time, one reachable and one cut off, so
//      both see the same machine at the same moment; then they swap. Sales --pace ms apart
//      (default 250: four a minute would be a busy counter; four a second leaves the sync its moment
//      after each sale, as a counter does). For reference, the same back to back (no pause): the
//      sync's work for one sale then runs during the next, on a machine whose two cores also run
//      the store server, PostgreSQL and the other registers.
// Targets: push ≥ 2,000 events/s; change to every register p99 ≤ 1,000 ms; sale p95 cut off within
// 10 ms of reachable. Prints the figures and PASS/FAIL; writes test/output/bench-store.json.
// Options: --sales N (wire sales per pusher, default 3000: 12,000 events each), --changes N (default
// 60), --sales-each N (sale timing: per register and half, default 75), --pace MS (default 250),
// --backlog N (default 60).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import pg from 'pg';

const root = fileURLToPath(new URL('../../', import.meta.url));
const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(`--${name}`) ? Number(argv[argv.indexOf(`--${name}`) + 1]) : dflt);
const SALES = opt('sales', 3000);
const CHANGES = opt('changes', 60);
const SALES_EACH = opt('sales-each', 75);
const BACKLOG = opt('backlog', 60);
const PACE_MS = opt('pace', 250);
const TARGETS = { eventsPerSecond: 2000, changeP99Ms: 1000, saleP95AddedMs: 10 };
const log = (m) => process.stderr.write(`${m}\n`);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (x) => `${x.toFixed(1)} ms`;
const rate = (n, msTaken) => Math.round((n * 1000) / msTaken);

async function benchLib() {
  const out = join(root, 'build/bench/store-bench-lib.mjs');
  await build({ absWorkingDir: root, entryPoints: ['test/bench/store-bench-lib.ts'], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' });
  return import(pathToFileURL(out).href);
}

const lib = await benchLib();
log('starting PostgreSQL, the store server and three registers…');
const rig = await lib.startStoreRig('bench_store');
const results = {};
try {
  // Each register reaches the store through its own proxy (a link the bench can cut).
  const [r1, r2, r3] = [await rig.addRegister('Till 1', { proxied: true }), await rig.addRegister('Till 2', { proxied: true }), await rig.addRegister('Till 3', { proxied: true })];
  const [item] = await lib.stockedItems(r1, ['Water'], 99_999);
  await rig.waitSynced(60_000);

  // 1. Push rate. Baseline first: the database alone, the same rows, three clients at once.
  const pushers = [];
  for (const n of [1, 2, 3]) {
    const invite = await r1.asManager('store:invite');
    pushers.push(await lib.joinOverWire(rig.servers[0].url, invite.code, `Bench pusher ${n}`));
  }
  const batchesOf = pushers.map((p) => lib.saleEventBatches(p.registerId, SALES, item.id));
  const events = batchesOf.reduce((n, bs) => n + bs.reduce((m, b) => m + b.length, 0), 0);
  log(`baseline: ${events.toLocaleString('en-US')} rows INSERTed straight into PostgreSQL by 3 clients…`);
  const raw = new pg.Pool({ connectionString: rig.databaseUrl, max: 3 });
  await raw.query('CREATE TABLE bench_events (id text PRIMARY KEY, register_id text, kind text, key jsonb, body jsonb)');
  let t0 = performance.now();
  await Promise.all(
    batchesOf.map(async (batches, i) => {
      for (const b of batches) {
        await raw.query('INSERT INTO bench_events SELECT e->>\'id\', $1, e->>\'kind\', e->\'key\', e->\'body\' FROM jsonb_array_elements($2::jsonb) e ON CONFLICT (id) DO NOTHING', [pushers[i].registerId, JSON.stringify(b)]);
      }
    }),
  );
  const baselineMs = performance.now() - t0;
  await raw.query('DROP TABLE bench_events');
  await raw.end();

  log(`push: the same ${events.toLocaleString('en-US')} events through the store server, 3 pushers at once…`);
  const pushMs = [];
  t0 = performance.now();
  await Promise.all(
    batchesOf.map(async (batches, i) => {
      for (const b of batches) pushMs.push((await pushers[i].push(b)).ms);
    }),
  );
  const wireMs = performance.now() - t0;
  const stored = Number((await rig.db.query("SELECT count(*) AS n FROM store_events WHERE register_id = ANY($1)", [pushers.map((p) => p.registerId)])).rows[0].n);
  for (const p of pushers) p.close();
  results.push = { events, stored, ms: wireMs, eventsPerSecond: rate(events, wireMs), batchP50Ms: pct(pushMs, 50), batchP99Ms: pct(pushMs, 99), baselineMs, baselineEventsPerSecond: rate(events, baselineMs) };

  // For reference: the real registers' sync draining a backlog made while each was cut off.
  log(`reference: each register sells ${BACKLOG} sales cut off, then all three sync at once…`);
  const regs = [r1, r2, r3];
  for (const r of regs) r.proxy.mode = 'stall';
  await Promise.all(
    regs.map(async (r) => {
      for (let i = 0; i < BACKLOG; i++) await r.cashSale(100 + i);
    }),
  );
  const waiting = (await Promise.all(regs.map((r) => r.status()))).reduce((n, s) => n + s.waiting, 0);
  const before = await rig.serverSeq();
  t0 = performance.now();
  // Timed from the links' return: it includes each sync's wait before it tries again (its backoff while away).
  for (const r of regs) r.proxy.mode = 'pass';
  await lib.waitUntil('the backlogs are at the store', async () => (await Promise.all(regs.map((r) => r.status()))).every((s) => s.waiting === 0), 120_000, 20);
  const drainMs = performance.now() - t0;
  const drained = (await rig.serverSeq()) - before;
  results.syncDrain = { waiting, events: drained, ms: drainMs, eventsPerSecond: rate(drained, drainMs) };
  await rig.waitSynced(60_000);

  // 2. A catalogue change to every register.
  log(`catalogue: ${CHANGES} price changes on Till 1, each timed until Tills 2 and 3 list it…`);
  const fields = { name: item.name, priceCents: item.priceCents, sku: item.sku, trackStock: true };
  const reach = [];
  for (let i = 0; i < CHANGES; i++) {
    const price = 200 + i;
    await r1.asManager('catalogue:update', { id: item.id, fields: { ...fields, priceCents: price } });
    const t = performance.now();
    await lib.waitUntil(
      `price ${price} on every register`,
      async () => {
        const lists = await Promise.all([r2, r3].map((r) => r.asCashier('catalogue:list', { search: '' })));
        return lists.every((l) => l.find((x) => x.id === item.id)?.priceCents === price);
      },
      30_000,
      5,
    );
    reach.push(performance.now() - t);
  }
  results.change = { n: reach.length, p50Ms: pct(reach, 50), p99Ms: pct(reach, 99), maxMs: Math.max(...reach) };

  // 3. Sale time on Till 3, store reachable and cut off, interleaved.
  const timedSale = async (reg, cents, paceMs) => {
    if (paceMs > 0) await new Promise((r) => setTimeout(r, paceMs));
    const t = performance.now();
    await reg.cashSale(cents);
    return performance.now() - t;
  };
  const saleTimes = async (paceMs) => {
    const sale = { reachable: [], away: [] };
    for (const [near, far] of [
      [r2, r3],
      [r3, r2],
    ]) {
      near.proxy.mode = 'pass';
      far.proxy.mode = 'stall';
      await rig.waitSynced(60_000, [near]);
      const run = async (reg, into) => {
        for (let i = 0; i < SALES_EACH; i++) into.push(await timedSale(reg, 1_000 + i, paceMs));
      };
      await Promise.all([run(near, sale.reachable), run(far, sale.away)]);
    }
    for (const r of [r2, r3]) r.proxy.mode = 'pass';
    const out = { paceMs, reachable: { n: sale.reachable.length, p50Ms: pct(sale.reachable, 50), p95Ms: pct(sale.reachable, 95) }, away: { n: sale.away.length, p50Ms: pct(sale.away, 50), p95Ms: pct(sale.away, 95) } };
    return { ...out, addedP95Ms: out.away.p95Ms - out.reachable.p95Ms };
  };
  for (const r of [r2, r3]) for (let i = 0; i < 5; i++) await timedSale(r, 1_000, 0);
  log(`sale time: Tills 2 and 3 each sell ${SALES_EACH} cash sales ${PACE_MS} ms apart at once, one reachable and one cut off, then swap…`);
  results.sale = await saleTimes(PACE_MS);
  log('sale time, for reference: the same back to back…');
  results.saleBackToBack = await saleTimes(0);

  const pass = {
    push: results.push.eventsPerSecond >= TARGETS.eventsPerSecond && results.push.stored === events,
    change: results.change.p99Ms <= TARGETS.changeP99Ms,
    sale: Math.abs(results.sale.addedP95Ms) <= TARGETS.saleP95AddedMs,
  };
  const p = results.push;
  const rows = [
    ['measure', 'figure', 'target', ''],
    ['baseline: rows INSERTed straight into PostgreSQL, 3 clients', `${p.baselineEventsPerSecond.toLocaleString('en-US')} rows/s`, '', ''],
    [`push: events taken by the store server, 3 pushers (${p.events.toLocaleString('en-US')} events, batches of ${lib.SYNC_BATCH_MAX})`, `${p.eventsPerSecond.toLocaleString('en-US')} events/s`, `≥ ${TARGETS.eventsPerSecond.toLocaleString('en-US')}/s`, pass.push ? 'PASS' : 'FAIL'],
    ['  one batch: p50 / p99', `${ms(p.batchP50Ms)} / ${ms(p.batchP99Ms)}`, '', ''],
    ['  stored (each event once)', `${p.stored.toLocaleString('en-US')} of ${p.events.toLocaleString('en-US')}`, '', ''],
    [`reference: 3 registers' sync draining a backlog (${results.syncDrain.waiting} outbox rows)`, `${results.syncDrain.eventsPerSecond.toLocaleString('en-US')} events/s (${ms(results.syncDrain.ms)})`, '', ''],
    [`catalogue change → every register (n ${results.change.n}): p50 / p99 / max`, `${ms(results.change.p50Ms)} / ${ms(results.change.p99Ms)} / ${ms(results.change.maxMs)}`, `p99 ≤ ${TARGETS.changeP99Ms} ms`, pass.change ? 'PASS' : 'FAIL'],
    [`sale ${PACE_MS} ms apart, store reachable (n ${results.sale.reachable.n}): p50 / p95`, `${ms(results.sale.reachable.p50Ms)} / ${ms(results.sale.reachable.p95Ms)}`, '', ''],
    [`sale ${PACE_MS} ms apart, store cut off (n ${results.sale.away.n}): p50 / p95`, `${ms(results.sale.away.p50Ms)} / ${ms(results.sale.away.p95Ms)}`, '', ''],
    ['  p95 cut off − reachable', ms(results.sale.addedP95Ms), `within ±${TARGETS.saleP95AddedMs} ms`, pass.sale ? 'PASS' : 'FAIL'],
    ['reference: back to back, reachable / cut off: p95', `${ms(results.saleBackToBack.reachable.p95Ms)} / ${ms(results.saleBackToBack.away.p95Ms)}`, '', ''],
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)));
  for (const row of rows) console.log(row.map((v, c) => String(v).padEnd(widths[c])).join('  '));
  const all = pass.push && pass.change && pass.sale;
  console.log(all ? 'PASS' : 'FAIL');
  mkdirSync(join(root, 'test', 'output'), { recursive: true });
  writeFileSync(join(root, 'test', 'output', 'bench-store.json'), JSON.stringify({ at: new Date().toISOString(), targets: TARGETS, ...results, pass }, null, 2) + '\n');
  process.exitCode = all ? 0 : 1;
} finally {
  await rig.close();
}

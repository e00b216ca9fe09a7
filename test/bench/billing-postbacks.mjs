#!/usr/bin/env node
// Postback delivery throughput (the postback half of `npm run bench:billing`).
//
// Against the real standalone engine (build/node/gateway-cli.mjs) in its own process:
//   baseline  the engine's direct sale rate (autocannon, 32 connections, approved card sales);
//   measured  postback deliveries per second to a local HTTP receiver: N sales are made
//             while the receiver refuses (each first attempt fails, the retry is due an hour
//             later), then the receiver accepts and the location's sandbox clock moves one
//             hour: the advance answers once every due delivery was POSTed, acknowledged
//             and recorded, so N / (its duration) is the delivery rate, from the persisted
//             outbox, over real HTTP, with every outcome written.
// Target: at least 1,000 deliveries per second. Prints the figures and PASS/FAIL when run
// alone; `measurePostbacks()` returns them to the combined billing bench.
// Options: --deliveries N (default 5000), --duration S (baseline seconds, default 5), --no-build.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startEngine, stop, headersOf } from './standalone-engine.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const POSTBACK_TARGET_PER_SEC = 1000;

const log = (m) => process.stderr.write(`${m}\n`);



const saleBody = (c, i) => JSON.stringify({ transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '10.00', location_id: c.location_id, description: `bench ${i}` } });

async function receiver() {
  const state = { accept: false, received: 0, accepted: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.received++;
      if (state.accept) {
        state.accepted++;
        res.writeHead(200).end('ok');
      } else res.writeHead(503).end('not yet');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { state, url: `http://127.0.0.1:${server.address().port}/hook`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

function saleRate(c, seconds) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: `${c.base_url}/transactions`, method: 'POST', headers: headersOf(c), body: saleBody(c, 0), connections: 32, duration: seconds },
      (err, res) => (err ? reject(err) : resolve(res.non2xx > 0 ? NaN : res.requests.average)),
    );
  });
}

/** Measures; returns { salesPerSec, deliveriesPerSec, deliveries, pass }. */
export async function measurePostbacks({ deliveries = 5000, durationSec = 5, build = true } = {}) {
  if (build) execFileSync(process.execPath, [join(root, 'electron/tools/build.mjs'), '--only', 'node', '--quiet'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'ringup-bench-pb-'));
  const rx = await receiver();
  const { child, creds: c } = await startEngine(dir);
  try {
    log(`baseline: direct sales for ${durationSec} s…`);
    const salesPerSec = await saleRate(c, durationSec);

    const cfg = await fetch(`${c.base_url}/postbackconfigs`, {
      method: 'POST',
      headers: headersOf(c),
      body: JSON.stringify({ postbackconfig: { location_id: c.location_id, resource: 'transaction', product_transaction_id: c.cc_product_transaction_id, url: rx.url, on_create: 1, on_update: 0, number_of_attempts: 2, attempt_interval: 3600 } }),
    });
    if (cfg.status !== 201) throw new Error(`postback config: ${cfg.status} ${await cfg.text()}`);

    log(`queueing ${deliveries} postbacks (the receiver refuses the first attempts)…`);
    let next = 0;
    const client = async () => {
      while (next < deliveries) {
        const i = next++;
        const r = await fetch(`${c.base_url}/transactions`, { method: 'POST', headers: headersOf(c), body: saleBody(c, i) });
        if (r.status !== 201) throw new Error(`sale ${i}: ${r.status}`);
        await r.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 32 }, client));
    const deadline = Date.now() + 120_000;
    while (rx.state.received < deliveries && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (rx.state.received !== deliveries) throw new Error(`first attempts: ${rx.state.received} of ${deliveries}`);

    rx.state.accept = true;
    log('receiver accepts; moving the sandbox clock one hour…');
    const origin = c.base_url.replace(/\/v2$/, '');
    const t0 = performance.now();
    const adv = await fetch(`${origin}/sandbox/clock/advance`, { method: 'POST', headers: headersOf(c), body: JSON.stringify({ clock: { location_id: c.location_id, seconds: 3600 } }) });
    const seconds = (performance.now() - t0) / 1000;
    if (adv.status !== 200) throw new Error(`advance: ${adv.status} ${await adv.text()}`);
    if (rx.state.accepted !== deliveries) throw new Error(`delivered ${rx.state.accepted} of ${deliveries} within the advance`);
    const deliveriesPerSec = deliveries / seconds;
    return { salesPerSec, deliveriesPerSec, deliveries, seconds, pass: deliveriesPerSec >= POSTBACK_TARGET_PER_SEC };
  } finally {
    await stop(child);
    await rx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  const opt = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
  const r = await measurePostbacks({ deliveries: Number(opt('deliveries', '5000')), durationSec: Number(opt('duration', '5')), build: !argv.includes('--no-build') });
  const f = (n) => Math.round(n).toLocaleString('en-US');
  console.log('| measure | figure | target | result |');
  console.log('|---|---|---|---|');
  console.log(`| baseline: direct card sales | ${f(r.salesPerSec)}/s | — | — |`);
  console.log(`| postback deliveries to a local receiver (${f(r.deliveries)} in ${r.seconds.toFixed(2)} s) | ${f(r.deliveriesPerSec)}/s | ≥ ${f(POSTBACK_TARGET_PER_SEC)}/s | ${r.pass ? 'PASS' : 'FAIL'} |`);
  console.log(r.pass ? 'PASS' : 'FAIL');
  process.exitCode = r.pass ? 0 : 1;
}

#!/usr/bin/env node
// `npm run bench:billing`: money without a cashier, in one run.
//   1. recurring charges per second when 10,000 recurrings fall due at once (billing-recurring.mjs),
//      every charge durable, with the engine's direct sale rate measured in the same run as baseline;
//   2. postback deliveries per second to a local receiver (billing-postbacks.mjs), with the
//      engine's direct sale rate as its baseline.
// Targets: ≥ 1,000 recurring charges/s and ≥ 1,000 postback deliveries/s. Exits 1 on any FAIL.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchRecurring, RECURRING_TARGET_PER_SEC } from './billing-recurring.mjs';
import { measurePostbacks, POSTBACK_TARGET_PER_SEC } from './billing-postbacks.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
execFileSync(process.execPath, ['electron/tools/build.mjs', '--quiet', '--only', 'node'], { cwd: root, stdio: 'inherit' });

const rec = await benchRecurring({ build: false });
const pb = await measurePostbacks({ build: false });
const f = (n) => Math.round(n).toLocaleString('en-US');
const rows = [
  ['baseline: direct sales from a saved card (32 connections)', `${f(rec.salesPerSec)}/s`, '', ''],
  [`recurring charges (${f(rec.count)} due at once, one advance of the sandbox clock)`, `${f(rec.perSec)}/s`, `≥ ${f(RECURRING_TARGET_PER_SEC)}/s`, rec.pass ? 'PASS' : 'FAIL'],
  ['  exactly one charge per recurring', rec.exactlyOnce ? 'yes' : 'NO', 'yes', rec.exactlyOnce ? 'PASS' : 'FAIL'],
  ['baseline: direct card sales (postback run)', `${f(pb.salesPerSec)}/s`, '', ''],
  [`postback deliveries to a local receiver (${f(pb.deliveries)} in ${pb.seconds.toFixed(2)} s)`, `${f(pb.deliveriesPerSec)}/s`, `≥ ${f(POSTBACK_TARGET_PER_SEC)}/s`, pb.pass ? 'PASS' : 'FAIL'],
];
console.log('| measure | figure | target | result |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
const pass = rec.pass && rec.exactlyOnce && pb.pass;
console.log(pass ? 'PASS' : 'FAIL');
process.exitCode = pass ? 0 : 1;

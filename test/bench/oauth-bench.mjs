#!/usr/bin/env node
// `node test/bench/oauth-bench.mjs [--duration S]` (after `node electron/tools/build.mjs --quiet`):
// what Bearer authentication costs on /v2. Against the real standalone engine in its own
// process: GET /v2/users/me at 32 connections with per-request keys (the baseline, same
// run, same engine) and with an OAuth access token obtained through the real flow (login
// page, consent, /o/token). Bearer tokens are looked up by hash in SQLite on every request
// (so expiry and revocation apply at once), where the key path is a Map hit.
// Target: Bearer throughput at least 60% of the key baseline. Prints PASS/FAIL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startEngine } from './standalone-engine.mjs';

const argv = process.argv.slice(2);
const DURATION = Number(argv.includes('--duration') ? argv[argv.indexOf('--duration') + 1] : '8');
const TARGET_RATIO = 0.6;


const field = (html, name) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)[1];

async function accessToken(c) {
  const q = new URLSearchParams({ response_type: 'code', client_id: c.oauth.client_id, redirect_uri: c.oauth.redirect_uri, scope: 'api', state: 'bench' });
  const page = await fetch(`${c.auth_url}/o/authrize?${q}`);
  const cookie = page.headers.getSetCookie()[0].split(';')[0]; // the request's browser binding
  const html = await page.text();
  const post = (form) => fetch(`${c.auth_url}/o/authrize`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  const consent = await (await post({ request_id: field(html, 'request_id'), csrf_token: field(html, 'csrf_token'), ...c.login })).text();
  const allowed = await post({ request_id: field(consent, 'request_id'), csrf_token: field(consent, 'csrf_token'), decision: 'allow' });
  const code = new URL(allowed.headers.get('location')).searchParams.get('code');
  const tok = await fetch(`${c.auth_url}/o/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', code, client_id: c.oauth.client_id, client_secret: c.oauth.client_secret }),
  });
  return (await tok.json()).access_token;
}

function run(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: 32, duration: DURATION, headers }, (err, r) => {
      if (err) return reject(err);
      if (r.non2xx > 0 || r.errors > 0) return reject(new Error(`${r.non2xx} non-2xx, ${r.errors} errors`));
      resolve({ rps: r.requests.average, p99: r.latency.p99 });
    });
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'ringup-oauth-bench-'));
const { child, creds } = await startEngine(dataDir);
try {
  const url = `${creds.base_url}/users/me`;
  const token = await accessToken(creds);
  const keyHeaders = { 'developer-id': creds.developer_id, 'user-id': creds.user_id, 'user-api-key': creds.user_api_key };
  const bearerHeaders = { 'developer-id': creds.developer_id, authorization: `Bearer ${token}` };
  await run(url, keyHeaders); // warm-up
  const key = await run(url, keyHeaders);
  const bearer = await run(url, bearerHeaders);
  const ratio = bearer.rps / key.rps;
  console.log('GET /v2/users/me, 32 connections, ' + DURATION + ' s each');
  console.log(`  keys (baseline)  ${key.rps.toFixed(0).padStart(7)} req/s   p99 ${key.p99} ms`);
  console.log(`  Bearer token     ${bearer.rps.toFixed(0).padStart(7)} req/s   p99 ${bearer.p99} ms`);
  console.log(`  ratio ${(ratio * 100).toFixed(0)}% (target ≥ ${TARGET_RATIO * 100}%): ${ratio >= TARGET_RATIO ? 'PASS' : 'FAIL'}`);
  process.exitCode = ratio >= TARGET_RATIO ? 0 : 1;
} finally {
  child.removeAllListeners('exit');
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}

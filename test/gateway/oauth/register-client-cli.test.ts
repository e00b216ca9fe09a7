/**
 * `npm run gateway -- register-client …`: the standalone entry bundled as the build
 * bundles it, run as a real process against a real data folder; the client it prints
 * then works at /o/authrize and /o/token of an engine started on that folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEngine } from '../../../electron/gateway/engine';
import { OAUTH_MSG } from '../../../electron/gateway/oauth/oauth-messages';
import { NOT_STARTED } from '../../../electron/gateway/oauth/register-client-command';

const root = new URL('../../..', import.meta.url).pathname;
const outfile = join(root, 'test/output', `gateway-cli-oauth-${process.pid}.mjs`);
const dataDir = mkdtempSync(join(tmpdir(), 'ringup-oauth-cli-'));

beforeAll(async () => {
  mkdirSync(join(root, 'test/output'), { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: ['electron/gateway/gateway-cli.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    define: { __RINGUP_VERSION__: '"test"' },
    logLevel: 'warning',
  });
});
afterAll(() => {
  rmSync(outfile, { force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const run = (...args: string[]) => spawnSync(process.execPath, [outfile, 'register-client', '--data', ...args], { encoding: 'utf8', timeout: 30_000 });

it('registers a client from the command line; the engine then accepts it', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'ringup-oauth-empty-'));
  const none = run(empty, '--name', 'X', '--redirect-uri', 'http://127.0.0.1:9/cb');
  expect(none.status).toBe(1);
  expect(none.stderr).toContain(NOT_STARTED);
  rmSync(empty, { recursive: true, force: true });

  const first = await startEngine({ dataDir, port: 0 });
  await first.close();

  const bad = run(dataDir, '--name', 'Books');
  expect(bad.status).toBe(1);
  expect(bad.stderr).toContain(OAUTH_MSG.REDIRECTS_REQUIRED);

  const ok = run(dataDir, '--name', 'Books', '--description', 'Accounting', '--redirect-uri', 'http://127.0.0.1:9/cb', '--redirect-uri', 'https://books.example/cb');
  expect(ok.status).toBe(0);
  const made = JSON.parse(ok.stdout) as { client_id: string; client_secret: string; redirect_uris: string[] };
  expect(made.redirect_uris).toEqual(['http://127.0.0.1:9/cb', 'https://books.example/cb']);

  const engine = await startEngine({ dataDir, port: 0 });
  try {
    const q = new URLSearchParams({ response_type: 'code', client_id: made.client_id, redirect_uri: 'https://books.example/cb', scope: 'api', state: 's' });
    const page = await fetch(`${engine.ctx.origin}/o/authrize?${q}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Sign in to allow Books');
    // The secret it printed authenticates the client (the code is wrong, so the answer is 400, not 401).
    const tok = await fetch(`${engine.ctx.origin}/o/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code: 'nope', client_id: made.client_id, client_secret: made.client_secret }),
    });
    expect(tok.status).toBe(400);
    expect(((await tok.json()) as { errors: Record<string, string[]> }).errors.code).toEqual([OAUTH_MSG.CODE_INVALID]);
  } finally {
    await engine.close();
  }
});

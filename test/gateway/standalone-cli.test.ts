/**
 * `npm run gateway -- --port P --data DIR`: the standalone entry, bundled the way the
 * build bundles it, run as a real process: prints credentials.json, serves /v2 with
 * them, stops on SIGTERM, and a second start on the same folder reuses the credentials.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const outDir = join(root, 'test/output');
const outfile = join(outDir, `gateway-cli-${process.pid}.mjs`);
const dataDir = mkdtempSync(join(tmpdir(), 'ringup-cli-'));

beforeAll(async () => {
  mkdirSync(outDir, { recursive: true });
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

interface Started {
  child: ChildProcess;
  creds: Record<string, string>;
}

function startCli(): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [outfile, '--port', '0', '--data', dataDir, '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway CLI did not print credentials: ${out}`));
    }, 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      try {
        const creds = JSON.parse(out) as Record<string, string>;
        clearTimeout(timer);
        resolve({ child, creds });
      } catch {
        // not complete yet
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway CLI exited early with ${code}: ${out}`));
    });
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('standalone gateway CLI', () => {
  it('prints the credentials, serves them, and reuses them after a restart', { timeout: 60_000 }, async () => {
    const first = await startCli();
    const c = first.creds;
    expect(c.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
    expect(JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'))).toEqual(c);
    const headers = { 'developer-id': c.developer_id!, 'user-id': c.user_id!, 'user-api-key': c.user_api_key! };
    const me = await fetch(`${c.base_url}/users/me`, { headers });
    expect(me.status).toBe(200);
    const tag = await fetch(`${c.base_url}/tags`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ tag: { title: 'from-cli', location_id: c.location_id } }),
    });
    expect(tag.status).toBe(201);
    expect(await stop(first.child)).toBe(0);

    const second = await startCli();
    const { base_url: _a, auth_url: _c, ...rest1 } = c;
    const { base_url: _b, auth_url: _d, ...rest2 } = second.creds;
    expect(rest2).toEqual(rest1);
    const tags = (await (await fetch(`${second.creds.base_url}/tags?title=from-cli`, { headers })).json()) as { tags: unknown[] };
    expect(tags.tags).toHaveLength(1);
    expect(await stop(second.child)).toBe(0);
  });
});

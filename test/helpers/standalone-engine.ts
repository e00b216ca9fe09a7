/**
 * The standalone engine (`build/node/gateway-cli.mjs`, the same engine the app embeds) as a
 * real process on port 0, for the tests that must kill it (kill -9 durability, recurring runs,
 * postback outbox, the offline queue's forwarding). It prints its credentials as JSON when it
 * is ready; this resolves with them, or rejects with its stderr if it exits first.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { EngineCredentials } from '../../electron/gateway/engine';

const root = new URL('../../', import.meta.url).pathname;

export type StandaloneCreds = Pick<EngineCredentials, 'base_url' | 'developer_id' | 'user_id' | 'user_api_key' | 'location_id' | 'cc_product_transaction_id'>;

/** Builds the node bundles the engine process runs from (quiet; a second call is cheap). */
export function buildEngineBundle(): void {
  execFileSync(process.execPath, [join(root, 'electron/tools/build.mjs'), '--only', 'node', '--quiet'], { stdio: 'inherit' });
}

/** `C`: the shape the caller reads of its credentials.json (OAuth and SSO tests read more). */
export function startStandaloneEngine<C = StandaloneCreds>(dataDir: string): Promise<{ child: ChildProcess; creds: C }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'build/node/gateway-cli.mjs'), '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      try {
        resolve({ child, creds: JSON.parse(out) as C });
      } catch {
        /* incomplete JSON so far */
      }
    });
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`engine exited (${code}) before it was ready: ${err}`)));
  });
}

/** The v2 headers for the engine's seeded user. */
export function standaloneHeaders(c: StandaloneCreds): Record<string, string> {
  return { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key, 'content-type': 'application/json' };
}

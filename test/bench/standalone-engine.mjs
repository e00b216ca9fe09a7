// The standalone engine (build/node/gateway-cli.mjs, the engine the app embeds) in its own
// process on port 0, for the benchmarks: started on a data folder, its printed credentials
// read back, stopped with SIGTERM (a clean close, as the app's supervisor does).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export function startEngine(dataDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'build/node/gateway-cli.mjs'), '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      try {
        resolve({ child, creds: JSON.parse(out) });
      } catch {
        /* not complete yet */
      }
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`engine exited ${code}: ${err}`)));
  });
}

export function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The v2 headers for the engine's seeded user. */
export const headersOf = (c) => ({ 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key, 'content-type': 'application/json' });

/** Starts a real engine (port 0, temp data folder) and gives a fetch helper with the seed credentials. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MovableClock } from '../../../electron/gateway/framework/clock';
import { startEngine, type RunningEngine } from '../../../electron/gateway/engine';

export interface Harness {
  engine: RunningEngine;
  clock: MovableClock;
  dir: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, asserted field by field
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; text: string }>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'ringup-pay-'));
  const clock = new MovableClock();
  const engine = await startEngine({ dataDir: dir, port: 0, clock });
  const c = engine.credentials;
  const headers = { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key };
  return {
    engine,
    clock,
    dir,
    async call(method, path, body) {
      const res = await fetch(`${c.base_url}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text;
      }
      return { status: res.status, body: parsed, text };
    },
    async close() {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const VISA = '4111111111111111';
export const EXP = '1230';

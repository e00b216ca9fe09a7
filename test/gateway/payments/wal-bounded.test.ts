/**
 * The engine's WAL stays bounded under steady load. Before, the payments writer's WAL was
 * checkpointed by a worker whose PASSIVE checkpoints never caught a writer that kept
 * writing, so SQLite never started the WAL over: 815 MB after 10 s of the benchmark's
 * sales, every frame appended to newly allocated blocks. Here sales arrive from 32
 * clients without a pause (4,800 sales: the WAL reached 46 MB at 57bbfa9, no frame reused), with
 * the restart threshold at 256 frames (1 MiB); the WAL must stay within 16 MiB — the hard limit
 * (8 × 256 frames) plus what is written between two checkpoints, with room for a slow machine —
 * and every acknowledged sale must be readable afterwards (the restarts lose nothing).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestEngine } from '../helpers/engine-fixture';

const RESTART_FRAMES = 256;
const FRAME_BYTES = 4096 + 24;

let e: TestEngine;
beforeAll(async () => {
  e = await TestEngine.start({ walRestartFrames: RESTART_FRAMES });
}, 30_000);
afterAll(async () => {
  await e?.close();
});

describe('the payments WAL under steady load', () => {
  it('starts over instead of growing, and keeps every sale', async () => {
    const wal = join(e.dataDir, 'gateway.sqlite-wal');
    const ids: string[] = [];
    let largest = 0;
    const CLIENTS = 32;
    const PER_CLIENT = 150;
    const client = async (n: number) => {
      for (let i = 0; i < PER_CLIENT; i++) {
        const r = await e.post('/transactions', {
          transaction: {
            action: 'sale',
            payment_method: 'cc',
            account_number: '4111111111111111',
            exp_date: '1230',
            transaction_amount: '10.00',
            description: `client ${n} sale ${i} `.padEnd(60, '.'),
          },
        });
        expect(r.status, r.text).toBe(201);
        ids.push(r.body.transaction.id as string);
        largest = Math.max(largest, statSync(wal).size);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
    expect(ids.length).toBe(CLIENTS * PER_CLIENT);
    // Without restarts the WAL holds every frame ever written.
    expect(largest).toBeLessThan(16 * 1024 * 1024);
    expect(RESTART_FRAMES * 8 * FRAME_BYTES).toBeLessThan(16 * 1024 * 1024);
    const listed = await e.get(`/transactions?page_size=5000&location_id=${e.locationId}`);
    const have = new Set((listed.body.transactions as { id: string }[]).map((t) => t.id));
    expect(ids.filter((id) => !have.has(id))).toEqual([]);
  }, 120_000);
});

/**
 * Crash safety of the offline queue (issue 13, point 3): a real process running the
 * core's queue and forwarder (test/offline/queue-kill-child.ts) is killed with SIGKILL at
 * random moments, 20 times, while it takes sales offline (each acknowledged as its screen
 * would, issue 20, point 3) and forwards them to a real standalone engine
 * (build/node/gateway-cli.mjs, its own process, port 0). Then one more run keeps the sales a
 * kill left unacknowledged (as the next person to sign in does with "Keep it") and drains the
 * queue, and the engine's records are checked against the queue:
 * - every sale the child reported as queued (after its fsynced commit) is in the queue;
 * - every queued sale is at the engine exactly once (no loss, no double charge);
 * - the engine has no sale the queue does not know.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPosDatabase } from '../../electron/core/platform/pos-database';
import { startQueueKillRig, type QueueKillRig } from '../helpers/queue-kill-rig';

const ITERATIONS = 20;
let rig: QueueKillRig;

beforeAll(async () => {
  rig = await startQueueKillRig('queue-kill');
}, 120_000);

afterAll(() => rig?.close());

describe('the offline queue under kill -9', () => {
  it(`loses no queued sale and charges none twice over ${ITERATIONS} random kills`, async () => {
    const queueDir = join(rig.dir, 'counter');
    const reported = new Set<string>();
    for (let i = 0; i < ITERATIONS; i++) {
      // Between 5 and 400 ms after the first queued sale: early kills hit enqueue, later ones forwarding.
      const r = await rig.runChild(queueDir, `kill-${i}`, 5 + Math.floor(Math.random() * 395));
      expect(r.signal, r.stderr).toBe('SIGKILL');
      for (const ref of r.queued) reported.add(ref);
    }
    expect(reported.size).toBeGreaterThan(ITERATIONS);

    const drain = await rig.runChild(queueDir, '-', null);
    expect(drain.code, drain.stderr).toBe(0);

    const db = openPosDatabase(queueDir);
    const rows = db.prepare('SELECT client_ref, state, card_blob FROM offline_queue').all() as Array<{ client_ref: string; state: string; card_blob: Buffer | null }>;
    db.close();
    const inQueue = new Set(rows.map((r) => r.client_ref));
    // Nothing the cashier saw as "approved offline" was lost.
    expect([...reported].filter((ref) => !inQueue.has(ref))).toEqual([]);
    // Everything was forwarded and its card data erased.
    expect(rows.filter((r) => r.state !== 'approved')).toEqual([]);
    expect(rows.filter((r) => r.card_blob !== null)).toEqual([]);

    const atEngine = await rig.atEngine('kill-');
    // Exactly once per sale: no duplicates, none missing, none the queue does not know.
    expect(atEngine.length).toBe(new Set(atEngine).size);
    const engineSet = new Set(atEngine);
    expect([...inQueue].filter((ref) => !engineSet.has(ref))).toEqual([]);
    expect(atEngine.filter((ref) => !inQueue.has(ref))).toEqual([]);
    expect(atEngine.length).toBe(rows.length);
  }, 110_000);
});

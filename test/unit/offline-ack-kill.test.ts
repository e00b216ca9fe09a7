/**
 * The power-cut window of the offline queue (issue 20, point 3): a sale queued offline is
 * charged only once its screen acknowledged it ("Approved offline" shown). A real process
 * running the core's queue and forwarder (test/offline/queue-kill-child.ts) takes sales
 * offline against a real standalone engine and is killed with SIGKILL at random moments, 24
 * times; it acknowledges each sale after queueing it (printing `A` after that commit), except
 * every fourth (its window went away before showing it), and a kill can land between a sale's
 * queueing and its acknowledgement. Then a new run of the app drains the queue, and:
 * - no sale that was not acknowledged is charged at the engine;
 * - every acknowledged sale is charged exactly once, and every one the child reported acknowledged is among them;
 * - every unacknowledged sale is still waiting, card data kept, and listed for the next sign-in.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPosDatabase } from '../../electron/core/platform/pos-database';
import { startQueueKillRig, type QueueKillRig } from '../helpers/queue-kill-rig';

const ITERATIONS = 24;
let rig: QueueKillRig;

beforeAll(async () => {
  rig = await startQueueKillRig('ack-kill');
}, 120_000);

afterAll(() => rig?.close());

describe('unacknowledged offline sales under kill -9', () => {
  it(`charges only what a screen acknowledged, each once, and lists the rest for the next sign-in, over ${ITERATIONS} random kills`, async () => {
    const queueDir = join(rig.dir, 'counter');
    const queued = new Set<string>();
    const acked = new Set<string>();
    for (let i = 0; i < ITERATIONS; i++) {
      // Between 5 and 400 ms after the first queued sale: kills land in enqueue, between it and the acknowledgement, and in forwarding.
      const r = await rig.runChild(queueDir, `ack-${i}`, 5 + Math.floor(Math.random() * 395), { RINGUP_KILL_SKIP_ACK: '4' });
      expect(r.signal, r.stderr).toBe('SIGKILL');
      for (const ref of r.queued) queued.add(ref);
      for (const ref of r.acked) acked.add(ref);
    }
    expect(queued.size).toBeGreaterThan(ITERATIONS * 2);

    // The next run of the app: what it would show at sign-in, and everything else forwarded.
    const next = await rig.runChild(queueDir, '=', null);
    expect(next.code, next.stderr).toBe(0);

    const db = openPosDatabase(queueDir);
    const rows = db.prepare('SELECT client_ref, state, acked, card_blob FROM offline_queue').all() as Array<{ client_ref: string; state: string; acked: 0 | 1; card_blob: Buffer | null }>;
    db.close();
    const ackedRows = new Set(rows.filter((r) => r.acked === 1).map((r) => r.client_ref));
    const unackedRows = rows.filter((r) => r.acked === 0);
    expect([...queued].filter((ref) => !rows.some((r) => r.client_ref === ref))).toEqual([]);
    expect(unackedRows.length).toBeGreaterThan(ITERATIONS / 2);

    const atEngine = await rig.atEngine('ack-');
    const engineSet = new Set(atEngine);
    // Never charged without its screen's acknowledgement.
    expect(atEngine.filter((ref) => !ackedRows.has(ref))).toEqual([]);
    expect([...queued].filter((ref) => !acked.has(ref) && engineSet.has(ref) && !ackedRows.has(ref))).toEqual([]);
    // Each acknowledged one charged exactly once (and what the child saw acknowledged is among them).
    expect(atEngine.length).toBe(engineSet.size);
    expect([...ackedRows].filter((ref) => !engineSet.has(ref))).toEqual([]);
    expect([...acked].filter((ref) => !engineSet.has(ref))).toEqual([]);
    expect(rows.filter((r) => r.acked === 1 && r.state !== 'approved')).toEqual([]);
    // Each unacknowledged one waits, its card data kept, and the next sign-in is shown exactly those.
    expect(unackedRows.filter((r) => r.state !== 'pending' || r.card_blob === null).map((r) => r.client_ref)).toEqual([]);
    expect([...next.unconfirmed].sort()).toEqual(unackedRows.map((r) => r.client_ref).sort());
  }, 150_000);
});

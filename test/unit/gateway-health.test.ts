/**
 * The gateway's health and the lost-payments sweep, as their own pieces of the core
 * (gateway-health.ts, lost-sweeper.ts; they were closures inside app-core.ts): one probe at a
 * time on the interval, the supervisor's word while the engine restarts, a sign-out shown at
 * once, a copied data folder probing and asking nothing, one sweep at a time. Fake timers: no
 * test here waits on the clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayHealth, type GatewayHealthDeps } from '../../electron/core/gateway/gateway-health';
import { LostSweeper } from '../../electron/core/sales/lost-sweeper';
import type { GatewayHealth as Health } from '../../shared/ipc/contract';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function probe(answers: Health[]) {
  let inFlight = 0;
  let most = 0;
  const calls: number[] = [];
  const health = vi.fn(async () => {
    inFlight++;
    most = Math.max(most, inFlight);
    calls.push(Date.now());
    // Each probe takes 3 s: longer than the interval, so overlapping probes would show.
    await new Promise((r) => setTimeout(r, 3_000));
    inFlight--;
    return { health: answers.shift() ?? 'ok', latencyMs: 3, checkedAt: Date.now() };
  });
  return { client: { health }, calls, most: () => most };
}

function deps(over: Partial<GatewayHealthDeps>): GatewayHealthDeps {
  return {
    client: { health: async () => ({ health: 'ok', latencyMs: 1, checkedAt: 0 }) },
    initial: { mode: 'embedded', baseUrl: 'http://127.0.0.1:1/v2', auth: 'engine-keys' },
    copy: false,
    intervalMs: 2_000,
    restarting: () => false,
    onChange: () => {},
    onAnswering: () => {},
    ...over,
  };
}

describe('gateway health', () => {
  it('probes one at a time, the next an interval after the last ended, and says so only when it changes', async () => {
    const p = probe(['ok', 'unreachable', 'unreachable', 'ok']);
    const changes: Health[] = [];
    let answering = 0;
    const h = new GatewayHealth(deps({ client: p.client, onChange: () => changes.push(h.status.health), onAnswering: () => answering++ }));
    expect(h.status.health).toBe('starting');
    const started = h.start();
    await vi.advanceTimersByTimeAsync(3_000);
    await started;
    await vi.advanceTimersByTimeAsync(3 * 5_000);
    h.stop();
    expect(p.most()).toBe(1);
    expect(p.calls.slice(0, 4)).toEqual([p.calls[0], p.calls[0]! + 5_000, p.calls[0]! + 10_000, p.calls[0]! + 15_000]);
    expect(changes).toEqual(['ok', 'unreachable', 'ok']);
    expect(answering).toBe(2);
  });

  it('takes the supervisor\'s word while the engine restarts, and looks again once it is back', async () => {
    let restarting = false;
    const p = probe(['ok', 'ok']);
    const h = new GatewayHealth(deps({ client: p.client, intervalMs: 0, restarting: () => restarting }));
    const started = h.start();
    await vi.advanceTimersByTimeAsync(3_000);
    await started;
    restarting = true;
    h.engineState('restarting');
    expect(h.status).toMatchObject({ health: 'restarting', latencyMs: null });
    restarting = false;
    h.engineState('ok');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(h.status.health).toBe('ok');
    expect(p.client.health).toHaveBeenCalledTimes(2);
  });

  it('shows a sign-out at once; a copied data folder is refused and never probed', async () => {
    const changes: boolean[] = [];
    const h = new GatewayHealth(deps({ onChange: () => changes.push(h.status.signedOut) }));
    h.signedOut();
    expect(changes).toEqual([true]);
    const health = vi.fn();
    const copy = new GatewayHealth(deps({ copy: true, client: { health } }));
    await copy.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(copy.status.health).toBe('refused');
    expect(health).not.toHaveBeenCalled();
    copy.stop();
  });
});

describe('lost-payments sweep', () => {
  it('sweeps at start, one at a time, on the interval while one is open; a copy asks nothing; stop waits for the sweep under way', async () => {
    let open = true;
    let runs = 0;
    let release: () => void = () => {};
    const lost = {
      resumeAll: vi.fn(() => {
        runs++;
        return new Promise<void>((r) => (release = r));
      }),
      anyOpen: () => open,
    };
    const s = new LostSweeper(lost, false);
    s.start(1_000);
    expect(runs).toBe(1);
    s.sweep();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    release();
    open = false;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(2);
    s.sweep();
    expect(runs).toBe(3);
    let stopped = false;
    const stopping = s.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    s.sweep();
    expect(runs).toBe(3);

    const copy = { resumeAll: vi.fn(async () => {}), anyOpen: () => true };
    const c = new LostSweeper(copy, true);
    c.start(1_000);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(copy.resumeAll).not.toHaveBeenCalled();
    await c.stop();
  });
});

/**
 * The engine in its own supervised process, for real (issue 9, point 9): the built node
 * host forks the built engine child; kill -9 of that child turns the status to
 * "restarting", the supervisor brings the engine back on the same data and port, the
 * status returns to "ok", and the counter sells again with the earlier sale still there.
 * While the engine is down (restarting), a keyed sale is approved offline and forwarded
 * exactly once when it is back (issue 13: "the embedded engine when it is stopped").
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { OFFLINE_APPROVED } from '../../electron/core/queue/offline-sales';
import type { CoreStatus, QueueStatus, SaleOutcome, StoreSettings } from '../../shared/ipc/contract';
import { buildNodeBundle, removeBundle, startHostProcess, type HostProcess } from '../helpers/host-process';

let bundle: string;
let host: HostProcess;
let ws: WebSocket;
let nextId = 1;
const pending = new Map<number, (r: unknown) => void>();
const statusEvents: CoreStatus[] = [];
const statusWaiters: { want: CoreStatus['gateway']['health']; resolve: (s: CoreStatus) => void }[] = [];

function call<T>(channel: string, arg?: unknown): Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }> {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve as (r: unknown) => void);
    ws.send(JSON.stringify({ type: 'call', id, channel, arg }));
  });
}

function statusBecomes(want: CoreStatus['gateway']['health']): Promise<CoreStatus> {
  return new Promise((resolve) => statusWaiters.push({ want, resolve }));
}

function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

/** The host's one child is the core process (issue 22, point 4); the engine is the core's child. */
function coreOf(hostPid: number): number {
  const [core, ...more] = childrenOf(hostPid);
  expect(more).toEqual([]);
  return core!;
}
const enginesOf = (hostPid: number): number[] => childrenOf(coreOf(hostPid));

beforeAll(async () => {
  bundle = await buildNodeBundle();
  host = await startHostProcess(bundle);
  ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, { headers: { origin: host.origin } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const ready = new Promise<void>((resolve) => {
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as { type: string; id?: number; result?: unknown; event?: string; payload?: unknown };
      if (m.type === 'ready') resolve();
      if (m.type === 'result') pending.get(m.id!)?.(m.result);
      if (m.type === 'event' && m.event === 'core:status') {
        const s = m.payload as CoreStatus;
        statusEvents.push(s);
        for (const w of [...statusWaiters]) {
          if (w.want === s.gateway.health) {
            statusWaiters.splice(statusWaiters.indexOf(w), 1);
            w.resolve(s);
          }
        }
      }
    });
  });
  ws.send(JSON.stringify({ type: 'hello', token: host.token }));
  await ready;
}, 120_000);

afterAll(async () => {
  ws?.close();
  await host?.stop();
  if (bundle) removeBundle(bundle);
});

const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };

async function sell(cents: number, ref: string): Promise<SaleOutcome> {
  const r = await call<SaleOutcome>('sale:charge', { subtotalCents: cents, taxCents: 0, tipCents: 0, card, clientRef: ref });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('engine process supervision (node host)', () => {
  it('runs the engine in a child; kill -9 → restarting → back on the same data, and the counter sells again', { timeout: 120_000 }, async () => {
    const status = await call<CoreStatus>('core:status');
    expect(status).toMatchObject({ ok: true, value: { gateway: { mode: 'embedded', health: 'ok' } } });
    const baseUrl = (status as { value: CoreStatus }).value.gateway.baseUrl;

    const engines = enginesOf(host.child.pid!);
    expect(engines).toHaveLength(1);
    const enginePid = engines[0]!;
    // The engine answers on its own (it is a separate process serving HTTP).
    expect((await fetch(baseUrl.replace(/\/v2$/, '/health'))).status).toBe(200);

    const users = await call<{ users: { id: string; name: string }[] }>('auth:users');
    const casey = (users as { value: { users: { id: string; name: string }[] } }).value.users.find((u) => u.name === 'Casey')!;
    expect((await call('auth:sign-in', { userId: casey.id, pin: '0000' })).ok).toBe(true);
    const first = await sell(1234, `proc-${Date.now().toString(36)}-1`);
    expect(first.approved).toBe(true);

    const restarting = statusBecomes('restarting');
    const back = statusBecomes('ok');
    process.kill(enginePid, 'SIGKILL');
    expect((await restarting).gateway.health).toBe('restarting');
    const okAgain = await back;
    expect(okAgain.gateway.baseUrl).toBe(baseUrl);

    const now = enginesOf(host.child.pid!);
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(enginePid);
    expect(host.exited()).toBe(false);

    const second = await sell(1500, `proc-${Date.now().toString(36)}-2`);
    expect(second.approved, second.message).toBe(true);
    // Same data: the sale from before the crash is still there.
    const view = await call<{ id: string }>('transactions:view', { id: first.transaction.id });
    expect(view.ok).toBe(true);
  });

  it('a stalled engine never blocks the core: status and sign-in answer while the engine is stopped', { timeout: 60_000 }, async () => {
    const [enginePid] = enginesOf(host.child.pid!);
    process.kill(enginePid!, 'SIGSTOP');
    try {
      // The engine cannot answer anything now (as during a long settle); the core still does.
      expect((await call<CoreStatus>('core:status')).ok).toBe(true);
      expect((await call('auth:users')).ok).toBe(true);
    } finally {
      process.kill(enginePid!, 'SIGCONT');
    }
    expect((await sell(1700, `proc-${Date.now().toString(36)}-3`)).approved).toBe(true);
  });

  it('the embedded engine down (restarting): a keyed sale is approved offline and forwarded exactly once when it is back (issue 13)', { timeout: 120_000 }, async () => {
    const users = (await call<{ users: { id: string; name: string }[] }>('auth:users')) as { value: { users: { id: string; name: string }[] } };
    const signIn = async (name: string, pin: string) => expect((await call('auth:sign-in', { userId: users.value.users.find((u) => u.name === name)!.id, pin })).ok).toBe(true);
    await signIn('Morgan', '1234');
    const settings = (await call<StoreSettings>('settings:get')) as { value: StoreSettings };
    expect((await call('settings:update', { ...settings.value, offlineAllowKeyed: true })).ok).toBe(true);
    await signIn('Casey', '0000');

    // Each crash soon after a start doubles the supervisor's wait (250 ms → … → 4 s): killed four
    // times, the engine stays down long enough for a sale to meet a closed port.
    for (let i = 0; i < 3; i++) {
      const back = statusBecomes('ok');
      process.kill(enginesOf(host.child.pid!)[0]!, 'SIGKILL');
      await back;
    }
    const down = statusBecomes('restarting');
    const back = statusBecomes('ok');
    process.kill(enginesOf(host.child.pid!)[0]!, 'SIGKILL');
    await down;
    const ref = `proc-${Date.now().toString(36)}-offline`;
    const offline = await sell(1_111, ref);
    expect(offline).toMatchObject({ approved: true, message: OFFLINE_APPROVED, transaction: { offline: true, amountCents: 1_111 } });
    expect(await call('queue:status')).toMatchObject({ ok: true, value: { pendingCount: 1, pendingCents: 1_111 } });
    // The sale screen showed "Approved offline" and acknowledges it (issue 20, point 3): only then is it sent.
    expect(await call('queue:acknowledge', { id: offline.transaction.id })).toMatchObject({ ok: true, value: { acknowledged: true } });

    // Back: the queue drains by itself, and the engine holds the sale once, under the sale's own id.
    await back;
    let status: QueueStatus | undefined;
    for (let i = 0; i < 200; i++) {
      status = ((await call<QueueStatus>('queue:status')) as { value: QueueStatus }).value;
      if (status.pendingCount === 0 && !status.forwarding) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toMatchObject({ pendingCount: 0, problemCount: 0 });
    // Under the core's own reference (issue 20, point 2): the queued sale's transaction_api_id, not the screen's attempt id.
    const found = await call<{ amountCents: number }[]>('transactions:search', { transactionApiId: offline.transaction.apiId });
    expect(found.ok && found.value.map((r) => r.amountCents)).toEqual([1_111]);
  });

  it('stops the engine child with the host (no orphan)', { timeout: 60_000 }, async () => {
    const core = coreOf(host.child.pid!);
    const engines = enginesOf(host.child.pid!);
    expect(engines).toHaveLength(1);
    await host.stop();
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(engines[0]!); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(engines[0]!)).toBe(false);
    // Nor the core process (issue 22, point 4): the host waited for it before it exited.
    expect(alive(core)).toBe(false);
  });
});

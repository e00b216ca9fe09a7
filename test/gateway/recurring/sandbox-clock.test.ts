/**
 * The sandbox clock and the scheduler: per-location persisted offsets, the advance runs
 * every module's due work for that location before answering, errors in the envelope,
 * 404 in a production-mode engine, and due work runs once at start (catch-up).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MovableClock } from '../../../electron/gateway/framework/clock';
import type { EngineModule } from '../../../electron/gateway/framework/context';
import { startEngine, type RunningEngine } from '../../../electron/gateway/engine';
import { defaultModules } from '../../../electron/gateway/engine-modules';
import { CLOCK_MSG } from '../../../electron/gateway/sandbox-clock/sandbox-clock-module';

const dirs: string[] = [];
const engines: RunningEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A module whose due work records each run with the location's now. */
function probe() {
  const runs: { locationId: string | undefined; now: number | undefined }[] = [];
  const mod: EngineModule = {
    name: 'probe',
    dueWork: (ctx) => [{ name: 'probe', run: (locationId) => void runs.push({ locationId, now: locationId ? ctx.locationNow(locationId) : undefined }) }],
  };
  return { runs, mod };
}

async function start(opts: { dir?: string; production?: boolean; mod?: EngineModule; clock?: MovableClock } = {}) {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'ringup-clock-'));
  if (!opts.dir) dirs.push(dir);
  const clock = opts.clock ?? new MovableClock();
  const engine = await startEngine({ dataDir: dir, port: 0, clock, production: opts.production, schedulerIntervalMs: 0, modules: [...defaultModules(), ...(opts.mod ? [opts.mod] : [])] });
  engines.push(engine);
  const c = engine.credentials;
  const origin = c.base_url.replace(/\/v2$/, '');
  const headers = { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key, 'content-type': 'application/json' };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, asserted field by field
  const call = async (method: string, path: string, body?: unknown, h: Record<string, string> = headers): Promise<{ status: number; body: any }> => {
    const res = await fetch(origin + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return { engine, dir, clock, call, location: c.location_id };
}

describe('sandbox clock', () => {
  it('answers a location clock with offset 0, then moves only that location forward and persists it', async () => {
    const clock = new MovableClock();
    clock.set(1_767_225_600); // 2026-01-01T00:00:00Z
    const { call, location, dir, engine } = await start({ clock });
    const first = await call('GET', `/sandbox/clock?location_id=${location}`);
    expect(first).toEqual({ status: 200, body: { clock: { location_id: location, now: 1_767_225_600, offset_seconds: 0 } } });
    const moved = await call('POST', '/sandbox/clock/advance', { clock: { location_id: location, seconds: 86_400 } });
    expect(moved.body).toEqual({ clock: { location_id: location, now: 1_767_225_600 + 86_400, offset_seconds: 86_400 } });
    expect(engine.ctx.locationNow(location)).toBe(1_767_225_600 + 86_400);
    expect(engine.clock.now()).toBe(1_767_225_600); // the engine clock itself did not move
    await engines.splice(0)[0]?.close();
    const again = await start({ dir, clock });
    expect((await again.call('GET', `/sandbox/clock?location_id=${location}`)).body.clock.offset_seconds).toBe(86_400);
  });

  it('runs every module\'s due work for that location, at its new time, before answering', async () => {
    const p = probe();
    const clock = new MovableClock();
    clock.set(1_767_225_600);
    const { call, location } = await start({ mod: p.mod, clock });
    p.runs.length = 0;
    await call('POST', '/sandbox/clock/advance', { clock: { location_id: location, seconds: 3600 } });
    expect(p.runs).toEqual([{ locationId: location, now: 1_767_225_600 + 3600 }]);
  });

  it('answers bad input in the envelope', async () => {
    const { call, location } = await start();
    expect(await call('GET', '/sandbox/clock')).toEqual({ status: 422, body: { errors: { location_id: [CLOCK_MSG.LOCATION_REQUIRED] } } });
    expect((await call('GET', '/sandbox/clock?location_id=nope')).body).toEqual({ errors: { location_id: [CLOCK_MSG.LOCATION_UNKNOWN] } });
    expect((await call('POST', '/sandbox/clock/advance', { seconds: 5 })).body.errors.clock).toEqual([CLOCK_MSG.BODY_SHAPE]);
    for (const seconds of [0, -5, 1.5, 'abc', null, 1e12]) {
      const r = await call('POST', '/sandbox/clock/advance', { clock: { location_id: location, seconds } });
      expect(r.status).toBe(422);
      expect(Object.keys(r.body.errors)).toEqual(['seconds']);
    }
    expect((await call('GET', `/sandbox/clock?location_id=${location}`)).body.clock.offset_seconds).toBe(0);
  });

  it('needs the /v2 credentials', async () => {
    const { call, location } = await start();
    expect((await call('GET', `/sandbox/clock?location_id=${location}`, undefined, {})).status).toBe(401);
  });

  it('is absent (404) from a production-mode engine', async () => {
    const { call, location } = await start({ production: true });
    expect((await call('GET', `/sandbox/clock?location_id=${location}`)).status).toBe(404);
    expect((await call('POST', '/sandbox/clock/advance', { clock: { location_id: location, seconds: 60 } })).status).toBe(404);
  });

  it('is in the OpenAPI document', async () => {
    const { engine } = await start();
    const paths = (engine.openapi() as { paths: Record<string, unknown> }).paths;
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/sandbox/clock', '/sandbox/clock/advance']));
  });
});

describe('scheduler', () => {
  it('runs every module\'s due work once at start to catch up', async () => {
    const p = probe();
    const dir = mkdtempSync(join(tmpdir(), 'ringup-sched-'));
    dirs.push(dir);
    const engine = await startEngine({ dataDir: dir, port: 0, schedulerIntervalMs: 60_000, modules: [...defaultModules(), p.mod] });
    engines.push(engine);
    await engine.ctx.runDueWork(); // queued behind the start-up run
    expect(p.runs.length).toBe(2);
    expect(p.runs[0]).toEqual({ locationId: undefined, now: undefined });
  });
});

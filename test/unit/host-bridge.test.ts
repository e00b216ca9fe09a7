/**
 * The node host over real sockets: the WebSocket bridge accepts only the host's own
 * page (Origin + Host) holding the per-launch token, and then answers through the
 * same validating dispatcher as Electron's ipcMain.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startCore, type Core } from '../../electron/core/app-core';
import { startHost, type RunningHost } from '../../electron/host/host-server';
import { WS_CLOSE } from '../../electron/host/ws-bridge';

let dir: string;
let core: Core;
let host: RunningHost;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ringup-host-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Ringup</title>');
  core = await startCore({ dataDir: join(dir, 'data'), shell: 'node-host', healthIntervalMs: 0 });
  host = await startHost({ core, rendererDir });
});

afterAll(async () => {
  await host?.close();
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

const wsUrl = () => `ws://127.0.0.1:${host.port}/ipc`;
const origin = () => `http://127.0.0.1:${host.port}`;

function open(headers: Record<string, string>): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(wsUrl(), { headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    ws.once('error', () => resolve({}));
  });
}

function nextMessage(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()) as Record<string, unknown>)));
}

function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once('close', (code) => resolve(code)));
}

describe('node host', () => {
  it('serves the renderer on loopback and refuses a foreign Host header (DNS rebinding)', async () => {
    const res = await fetch(host.origin);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const bad = await new Promise<number>((resolve) => {
      // fetch() will not let us set Host; use a raw request.
      import('node:http').then(({ request }) => {
        const req = request({ host: '127.0.0.1', port: host.port, path: '/', headers: { host: 'evil.example' } }, (r) => resolve(r.statusCode ?? 0));
        req.end();
      });
    });
    expect(bad).toBe(403);
  });

  it('refuses a WebSocket from another origin', async () => {
    const r = await open({ origin: 'http://evil.example' });
    expect(r.status).toBe(403);
  });

  it('refuses a WebSocket with no origin (another local process)', async () => {
    const r = await open({});
    expect(r.status).toBe(403);
  });

  it('closes a connection whose first message has the wrong token', async () => {
    const { ws } = await open({ origin: origin() });
    const code = closed(ws!);
    ws!.send(JSON.stringify({ type: 'hello', token: 'guess' }));
    expect(await code).toBe(WS_CLOSE.badToken);
  });

  it('closes a connection that calls before saying hello', async () => {
    const { ws } = await open({ origin: origin() });
    const code = closed(ws!);
    ws!.send(JSON.stringify({ type: 'call', id: 1, channel: 'core:status' }));
    expect(await code).toBe(WS_CLOSE.badToken);
  });

  it('answers contract calls after the token, and refuses bad arguments and unknown channels', async () => {
    const { ws } = await open({ origin: origin() });
    ws!.send(JSON.stringify({ type: 'hello', token: host.token }));
    expect(await nextMessage(ws!)).toEqual({ type: 'ready' });

    ws!.send(JSON.stringify({ type: 'call', id: 1, channel: 'core:status' }));
    const status = await nextMessage(ws!);
    expect(status).toMatchObject({ type: 'result', id: 1, result: { ok: true, value: { shell: 'node-host', gateway: { mode: 'embedded', health: 'ok' } } } });

    ws!.send(JSON.stringify({ type: 'call', id: 2, channel: 'core:status', arg: { x: 1 } }));
    expect(await nextMessage(ws!)).toMatchObject({ id: 2, result: { ok: false, error: { code: 'bad_request' } } });

    ws!.send(JSON.stringify({ type: 'call', id: 3, channel: 'shell:exec', arg: 'rm -rf /' }));
    expect(await nextMessage(ws!)).toMatchObject({ id: 3, result: { ok: false, error: { code: 'unknown_channel' } } });

    const code = closed(ws!);
    ws!.send('not json');
    expect(await code).toBe(WS_CLOSE.badMessage);
  });

  it('gives each connection its own sign-in: the session event reaches only its own connection, and closing the connection ends its session', async () => {
    const hello = async () => {
      const { ws } = await open({ origin: origin() });
      ws!.send(JSON.stringify({ type: 'hello', token: host.token }));
      expect(await nextMessage(ws!)).toEqual({ type: 'ready' });
      return ws!;
    };
    const a = await hello();
    const b = await hello();
    const seenByB: unknown[] = [];
    b.on('message', (d) => seenByB.push(JSON.parse(d.toString())));
    const users = await core.handlers['auth:users']();
    const casey = users.ok ? users.value.users.find((u) => u.name === 'Casey')! : undefined;

    const aMessages: Array<Record<string, unknown>> = [];
    const aGot = (pred: (m: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const found = aMessages.find(pred);
        if (found) return resolve(found);
        a.on('message', function onMsg(d) {
          const m = JSON.parse(d.toString()) as Record<string, unknown>;
          if (pred(m)) {
            a.off('message', onMsg);
            resolve(m);
          }
        });
      });
    const event = aGot((m) => m.type === 'event' && m.event === 'auth:session');
    const result = aGot((m) => m.type === 'result' && m.id === 1);
    a.send(JSON.stringify({ type: 'call', id: 1, channel: 'auth:sign-in', arg: { userId: casey!.id, pin: '0000' } }));
    expect(await result).toMatchObject({ result: { ok: true, value: { user: { name: 'Casey' } } } });
    expect(await event).toMatchObject({ payload: { user: { name: 'Casey' } } });

    b.send(JSON.stringify({ type: 'call', id: 7, channel: 'auth:session' }));
    await new Promise<void>((resolve) => {
      const check = () => (seenByB.some((m) => (m as { id?: number }).id === 7) ? resolve() : setTimeout(check, 10));
      check();
    });
    expect(seenByB.find((m) => (m as { id?: number }).id === 7)).toMatchObject({ result: { ok: true, value: null } });
    expect(seenByB.filter((m) => (m as { event?: string }).event === 'auth:session')).toEqual([]);

    // A's session is in the core (the audit log names the connection's user) until A closes.
    const audit = () => core.handlers['audit:list']({ page: 1 });
    const aClosed = closed(a);
    a.close();
    await aClosed;
    // The close reaches the core a moment after the socket closes: wait for the sign-out row.
    const { runAsCaller } = await import('../../electron/ipc/caller-context');
    const morgan = users.ok ? users.value.users.find((u) => u.name === 'Morgan')! : undefined;
    runAsCaller('test-manager', () => core.handlers['auth:sign-in']({ userId: morgan!.id, pin: '1234' }));
    for (;;) {
      const r = await runAsCaller('test-manager', audit);
      if (r.ok && r.value.rows.some((x) => x.kind === 'sign-out' && x.userName === 'Casey' && x.detail === 'window closed')) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    b.close();
  });
});

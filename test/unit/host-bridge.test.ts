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
});

/**
 * Pre-sign-in WebSocket connections on the node host are capped and time out (issue 20,
 * point 9: "pre-sign-in WebSocket connections are not capped (400 held)"). "Sign-in" here is
 * the bridge's own: the hello carrying the per-launch token. Real host on port 0, real
 * sockets; the hello timeout runs on fake timers, and every wait is on a socket's state.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { startCore, type Core } from '../../electron/core/app-core';
import { startHost, type RunningHost } from '../../electron/host/host-server';
import { PENDING_LIMIT, HELLO_TIMEOUT_MS, CLOSE_GRACE_MS } from '../../electron/host/ws-bridge';

const CAP = 4;
let dir: string;
let core: Core;
let host: RunningHost;
const sockets: Array<Socket | WebSocket> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ringup-pending-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Ringup</title>');
  core = await startCore({ dataDir: join(dir, 'data'), shell: 'node-host', healthIntervalMs: 0, deviceStatusIntervalMs: 0 });
  host = await startHost({ core, rendererDir, maxPendingConnections: CAP });
});

afterEach(async () => {
  vi.useRealTimers();
  const all = sockets.splice(0);
  await Promise.all(all.map((s) => (s instanceof WebSocket ? closedWs(s, true) : closedRaw(s, true))));
});

afterAll(async () => {
  await host?.close();
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

const origin = () => `http://127.0.0.1:${host.port}`;

/** A WebSocket that upgraded, or the HTTP status it was refused with. */
function openWs(): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, { headers: { origin: origin() } });
    ws.once('open', () => {
      sockets.push(ws);
      resolve({ ws });
    });
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    ws.once('error', () => resolve({}));
  });
}

function closedWs(ws: WebSocket, end = false): Promise<number> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve(0);
  const p = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  if (end) ws.terminate();
  return p;
}

/**
 * A silent client: upgrades by hand, then never says hello and never answers the server's
 * close frame (what a connection-holding process does). Resolves once upgraded.
 */
async function openSilent(): Promise<Socket> {
  const sock = connect(host.port, '127.0.0.1');
  sock.on('error', () => {});
  await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
  sock.write(
    `GET /ipc HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nOrigin: ${origin()}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  const head = await new Promise<string>((resolve) => sock.once('data', (d: Buffer) => resolve(d.toString('latin1'))));
  expect(head.slice(0, 12)).toBe('HTTP/1.1 101');
  sockets.push(sock);
  return sock;
}

function closedRaw(s: Socket, end = false): Promise<void> {
  if (s.closed) return Promise.resolve();
  const p = new Promise<void>((resolve) => s.once('close', () => resolve()));
  if (end) s.destroy();
  return p;
}

const hello = async (ws: WebSocket) => {
  const ready = new Promise<unknown>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
  ws.send(JSON.stringify({ type: 'hello', token: host.token }));
  expect(await ready).toEqual({ type: 'ready' });
};

describe('pre-sign-in WebSocket connections', () => {
  it('has a finite default cap and timeout', () => {
    expect(PENDING_LIMIT).toBeGreaterThan(0);
    expect(PENDING_LIMIT).toBeLessThanOrEqual(32);
    expect(HELLO_TIMEOUT_MS).toBeLessThanOrEqual(10_000);
  });

  it('refuses a connection past the cap with 503 while the others have not said hello; a hello frees its place', async () => {
    const open: WebSocket[] = [];
    for (let i = 0; i < CAP; i++) {
      const r = await openWs();
      expect(r.ws).toBeDefined();
      open.push(r.ws!);
    }
    expect((await openWs()).status).toBe(503);
    // A signed-in connection no longer counts: one more may wait for its hello.
    await hello(open[0]!);
    const next = await openWs();
    expect(next.ws).toBeDefined();
    expect((await openWs()).status).toBe(503);
    // A connection that goes away frees its place too.
    await closedWs(open[1]!, true);
    for (;;) {
      const r = await openWs();
      if (r.ws) break;
      expect(r.status).toBe(503); // the close reaches the server a moment after the client's
    }
  });

  it('closes a connection that never says hello after the timeout, even one that ignores the close frame, and frees its place', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const silent: Socket[] = [];
    for (let i = 0; i < CAP; i++) silent.push(await openSilent());
    expect((await openWs()).status).toBe(503);
    const allClosed = Promise.all(silent.map((s) => closedRaw(s)));
    await vi.advanceTimersByTimeAsync(HELLO_TIMEOUT_MS + CLOSE_GRACE_MS);
    await allClosed;
    const r = await openWs();
    expect(r.ws).toBeDefined();
  });
});

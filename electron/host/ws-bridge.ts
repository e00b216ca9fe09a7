/**
 * The node host's side of the IPC contract: a WebSocket on the host's own origin.
 *
 * Nothing but the page the host served can drive it:
 *   - the upgrade must carry the host's own Origin and Host headers (no other local
 *     page, no DNS rebinding);
 *   - the first message must carry the per-launch token, which is only ever handed
 *     to the person who started the host (in the printed URL's #fragment, which
 *     browsers never send to a server) — a local process without it is closed out.
 * After that, every call goes through the same dispatcher as Electron's ipcMain.
 *
 * Connections that have not said hello yet cost the host a socket each and prove nothing,
 * so (issue 20, point 9) at most PENDING_LIMIT of them may be open at once per host — one
 * more is refused with 503 before the upgrade — and each is closed HELLO_TIMEOUT_MS after
 * its upgrade. A page says hello as soon as its socket opens, so a handful of tabs loading
 * together stay far below the limit. Whatever closes a connection (timeout, bad token, bad
 * message) sends the close code and then drops the socket after CLOSE_GRACE_MS: a peer that
 * never answers the close frame must not keep it (or its place) for ws's 30 s close timeout.
 * Simplification: the limit is per host, not per peer — every peer is a local process here.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { isFor } from '../core/platform/events';
import type { CoreEventSource } from '../core-process/core-link';
import type { Dispatch } from '../ipc/dispatcher';

export const WS_PATH = '/ipc';
export const WS_CLOSE = { badToken: 4401, badMessage: 4400, helloTimeout: 4408 } as const;
const MAX_MESSAGE_BYTES = 1 << 20;
/** Connections open at once that have not said hello yet (handshakes in flight included). */
export const PENDING_LIMIT = 16;
export const HELLO_TIMEOUT_MS = 5_000;
/** How long a closed-out peer may take to answer the close frame before its socket is dropped. */
export const CLOSE_GRACE_MS = 1_000;

export interface WsBridgeOptions {
  token: string;
  /** Origins the page may have, e.g. http://127.0.0.1:5123 and http://localhost:5123. */
  allowedOrigins: readonly string[];
  dispatch: Dispatch;
  events: CoreEventSource;
  helloTimeoutMs?: number;
  /** Default PENDING_LIMIT. */
  maxPending?: number;
  /** A connection closed: its session ends (each connection signs in on its own). */
  onDisconnect?: (callerId: string) => void;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createWsBridge(opts: WsBridgeOptions) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const allowed = new Set(opts.allowedOrigins);
  const maxPending = opts.maxPending ?? PENDING_LIMIT;
  let connections = 0;
  /** Upgrades accepted that have not said hello yet and whose socket is still open. */
  let pending = 0;

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // A peer that resets mid-handshake must not become an uncaught 'error' (that kills the host).
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://placeholder');
    const origin = req.headers.origin ?? '';
    const hostOrigin = `http://${req.headers.host ?? ''}`;
    if (url.pathname !== WS_PATH || !allowed.has(origin) || !allowed.has(hostOrigin)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (pending >= maxPending) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    // Counted from here until its hello or until its socket closes, whichever comes first —
    // the socket's own 'close', so a handshake ws refuses (bad key) gives its place back too.
    pending++;
    let counted = true;
    const release = () => {
      if (counted) pending--;
      counted = false;
    };
    socket.once('close', release);
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, origin, release));
  }

  /** Sends the close code, and drops the socket if the peer has not answered within the grace. */
  function shut(ws: WebSocket, code: number, reason: string): void {
    ws.close(code, reason);
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  function serve(ws: WebSocket, origin: string, helloSaid: () => void): void {
    let authed = false;
    let unsubscribe: (() => void) | undefined;
    // Each connection (browser tab) is its own caller with its own sign-in.
    const callerId = `ws-${++connections}`;
    const helloTimer = setTimeout(() => shut(ws, WS_CLOSE.helloTimeout, 'hello expected'), opts.helloTimeoutMs ?? HELLO_TIMEOUT_MS);

    // A malformed frame (bad opcode, RSV bits, unmasked, oversize, invalid UTF-8, bad close
    // code…): ws has already answered with 1002/1007/1009 and closes the connection; without
    // this listener the 'error' event would be thrown and take the whole host down.
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      clearTimeout(helloTimer);
      unsubscribe?.();
      if (authed) opts.onDisconnect?.(callerId);
    });
    ws.on('message', (data, isBinary) => {
      let msg: unknown;
      try {
        msg = isBinary ? undefined : JSON.parse(data.toString());
      } catch {
        msg = undefined;
      }
      if (!msg || typeof msg !== 'object') {
        shut(ws, WS_CLOSE.badMessage, 'bad message');
        return;
      }
      const m = msg as { type?: unknown; token?: unknown; id?: unknown; channel?: unknown; arg?: unknown };
      if (!authed) {
        if (m.type !== 'hello' || typeof m.token !== 'string' || !sameToken(m.token, opts.token)) {
          shut(ws, WS_CLOSE.badToken, 'bad token');
          return;
        }
        authed = true;
        clearTimeout(helloTimer);
        helloSaid();
        unsubscribe = opts.events.subscribe((event, payload, to) => {
          if (isFor(callerId, to) && ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'event', event, payload }));
        });
        ws.send(JSON.stringify({ type: 'ready' }));
        return;
      }
      if (m.type !== 'call' || typeof m.id !== 'number' || typeof m.channel !== 'string') {
        shut(ws, WS_CLOSE.badMessage, 'bad message');
        return;
      }
      const id = m.id;
      void opts.dispatch(m.channel, { url: origin + '/', isMainFrame: true, callerId }, m.arg).then((result) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'result', id, result }));
      });
    });
  }

  return {
    handleUpgrade,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}

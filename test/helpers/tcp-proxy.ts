/**
 * A real TCP proxy on 127.0.0.1 in front of a real gateway, for tests of gateway
 * trouble. Modes (switchable at any time):
 * - `pass`: bytes flow both ways.
 * - `swallow`: the request reaches the gateway (which acts on it) but its answer is
 *   thrown away and the connection is held open: "accepted, never answered".
 * - `drop`: new connections are accepted and closed at once (the gateway is not reached).
 * - `stall`: a black hole, as a link that went dead without a word: new connections are accepted
 *   and never answered (nothing reaches the target), open ones carry nothing either way. Leaving
 *   `stall` cuts every connection that lived through it (their bytes are lost, so none can go on),
 *   and the client connects afresh.
 * Independently of the mode, `postDelayMs` > 0 makes every POST reach the gateway that
 * much later (a slow hop): the client may give up first, and the POST still lands and is
 * acted on. GETs on other connections pass at once, so a lookup can run ahead of it.
 * `delayMs` (any mode that passes) holds each piece of the gateway's answer that long: a
 * slow link or a slow gateway, in order.
 * It counts the requests it forwarded, so a test can check exactly one charge.
 * `hold(pattern)` holds back the answers of the requests whose request line matches (the
 * gateway acts at once; the caller waits) until the returned release is called: a slow
 * processor, for a test to see what the app shows meanwhile.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export type ProxyMode = 'pass' | 'swallow' | 'drop' | 'stall';

export interface TcpProxy {
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  mode: ProxyMode;
  /** POSTs reach the gateway this many ms late (0: at once). The rest of such a connection follows in order. */
  postDelayMs: number;
  /** Delayed writes not yet made: 0 once every late POST has reached the gateway. */
  readonly delayedPending: number;
  /** Each chunk of an answer waits this long before it reaches the client (0: at once). */
  delayMs: number;
  /** Request lines seen (e.g. "POST /v2/transactions HTTP/1.1"), in order, for every forwarded connection. */
  readonly requests: string[];
  /** Holds the answers to requests whose request line matches; the returned function lets them through. */
  hold(pattern: RegExp): () => void;
  /** How many held requests the gateway has answered (their answers wait here): the gateway has acted on them. */
  readonly heldAnswers: number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, initial: ProxyMode = 'pass'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const state = { mode: initial, postDelayMs: 0, delayedPending: 0, delayMs: 0 };
  /** Connections whose answers are held, each with what it has held back so far. */
  const held = new Map<Socket, { chunks: Buffer[]; ended: boolean }>();
  let holdPattern: RegExp | null = null;
  /** Connections that lived through a stall: cut when it ends. */
  const stalled = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => {
      sockets.delete(client);
      stalled.delete(client);
    });
    client.on('error', () => undefined);
    if (state.mode === 'drop') {
      client.destroy();
      return;
    }
    if (state.mode === 'stall') {
      stalled.add(client);
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    // Once a connection carries a delayed POST, everything after it on that connection waits its turn (bytes stay in order).
    let late: Promise<void> | null = null;
    client.on('data', (chunk: Buffer) => {
      if (state.mode === 'stall') return;
      const text = chunk.toString('latin1');
      for (const m of text.matchAll(/^(GET|POST|PUT|DELETE|PATCH) \S+ HTTP\/1\.1/gm)) {
        requests.push(m[0]);
        if (holdPattern?.test(m[0]) && !held.has(client)) held.set(client, { chunks: [], ended: false });
      }
      if (!late && !(state.postDelayMs > 0 && /^POST /m.test(text))) {
        upstream.write(chunk);
        return;
      }
      const delay = state.postDelayMs;
      state.delayedPending++;
      late = (late ?? Promise.resolve())
        .then(() => new Promise<void>((r) => setTimeout(r, delay)))
        .then(() => {
          state.delayedPending--;
          if (!upstream.destroyed) upstream.write(chunk);
        });
    });
    // The client giving up (a timeout) does not take back a POST already on its way: it still lands.
    client.on('end', () => void (late ?? Promise.resolve()).then(() => upstream.end()));
    upstream.on('data', (chunk: Buffer) => {
      if (state.mode === 'stall') return;
      // While swallowing, answers are read and thrown away (the gateway answers in milliseconds, so none is left when passing resumes).
      if (state.mode === 'swallow') return;
      const h = held.get(client);
      if (h) h.chunks.push(chunk);
      else if (state.delayMs > 0) setTimeout(() => client.write(chunk), state.delayMs);
      else client.write(chunk);
    });
    upstream.on('end', () => {
      const h = held.get(client);
      if (h) h.ended = true;
      else if (state.mode === 'swallow') return;
      // After the delayed chunks (timers of equal delay fire in order).
      else if (state.delayMs > 0) setTimeout(() => client.end(), state.delayMs);
      else client.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(m: ProxyMode) {
      const was = state.mode;
      state.mode = m;
      // Going down cuts kept-alive connections too, as a pulled cable would.
      if (m === 'drop') for (const s of sockets) s.destroy();
      if (m === 'stall' && was !== 'stall') for (const s of sockets) stalled.add(s);
      if (m !== 'stall' && was === 'stall') {
        for (const s of stalled) s.destroy();
        stalled.clear();
      }
    },
    get postDelayMs() {
      return state.postDelayMs;
    },
    set postDelayMs(ms: number) {
      state.postDelayMs = ms;
    },
    get delayedPending() {
      return state.delayedPending;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    requests,
    get heldAnswers() {
      return [...held.values()].filter((h) => h.chunks.length > 0).length;
    },
    hold(pattern) {
      holdPattern = pattern;
      return () => {
        holdPattern = null;
        for (const [client, h] of held) {
          for (const c of h.chunks) client.write(c);
          if (h.ended) client.end();
        }
        held.clear();
      };
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

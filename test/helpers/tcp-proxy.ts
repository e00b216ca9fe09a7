/**
 * A real TCP proxy on 127.0.0.1 in front of a real gateway, for tests of gateway
 * trouble. Modes (switchable at any time):
 * - `pass`: bytes flow both ways.
 * - `swallow`: the request reaches the gateway (which acts on it) but its answer is
 *   thrown away and the connection is held open: "accepted, never answered".
 * - `drop`: new connections are accepted and closed at once (the gateway is not reached).
 * Independently of the mode, `postDelayMs` > 0 makes every POST reach the gateway that
 * much later (a slow hop): the client may give up first, and the POST still lands and is
 * acted on. GETs on other connections pass at once, so a lookup can run ahead of it.
 * It counts the requests it forwarded, so a test can check exactly one charge.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export type ProxyMode = 'pass' | 'swallow' | 'drop';

export interface TcpProxy {
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  mode: ProxyMode;
  /** POSTs reach the gateway this many ms late (0: at once). The rest of such a connection follows in order. */
  postDelayMs: number;
  /** Delayed writes not yet made: 0 once every late POST has reached the gateway. */
  readonly delayedPending: number;
  /** Request lines seen (e.g. "POST /v2/transactions HTTP/1.1"), in order, for every forwarded connection. */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, initial: ProxyMode = 'pass'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const state = { mode: initial, postDelayMs: 0, delayedPending: 0 };
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (state.mode === 'drop') {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    // Once a connection carries a delayed POST, everything after it on that connection waits its turn (bytes stay in order).
    let late: Promise<void> | null = null;
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      for (const m of text.matchAll(/^(GET|POST|PUT|DELETE|PATCH) \S+ HTTP\/1\.1/gm)) requests.push(m[0]);
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
      // While swallowing, answers are read and thrown away (the gateway answers in milliseconds, so none is left when passing resumes).
      if (state.mode === 'swallow') return;
      client.write(chunk);
    });
    upstream.on('end', () => {
      if (state.mode !== 'swallow') client.end();
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
      state.mode = m;
      // Going down cuts kept-alive connections too, as a pulled cable would.
      if (m === 'drop') for (const s of sockets) s.destroy();
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
    requests,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

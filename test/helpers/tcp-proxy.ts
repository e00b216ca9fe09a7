/**
 * A real TCP proxy on 127.0.0.1 in front of a real gateway, for tests of gateway
 * trouble. Modes (switchable at any time):
 * - `pass`: bytes flow both ways.
 * - `swallow`: the request reaches the gateway (which acts on it) but its answer is
 *   thrown away and the connection is held open: "accepted, never answered".
 * - `drop`: new connections are accepted and closed at once (the gateway is not reached).
 * `delayMs` (any mode that passes) holds each piece of the gateway's answer that long: a
 * slow link or a slow gateway, in order.
 * It counts the requests it forwarded, so a test can check exactly one charge.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export type ProxyMode = 'pass' | 'swallow' | 'drop';

export interface TcpProxy {
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  mode: ProxyMode;
  /** Each chunk of an answer waits this long before it reaches the client (0: at once). */
  delayMs: number;
  /** Request lines seen (e.g. "POST /v2/transactions HTTP/1.1"), in order, for every forwarded connection. */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, initial: ProxyMode = 'pass'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const state = { mode: initial, delayMs: 0 };
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
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      for (const m of text.matchAll(/^(GET|POST|PUT|DELETE|PATCH) \S+ HTTP\/1\.1/gm)) requests.push(m[0]);
      upstream.write(chunk);
    });
    client.on('end', () => upstream.end());
    upstream.on('data', (chunk: Buffer) => {
      // While swallowing, answers are read and thrown away (the gateway answers in milliseconds, so none is left when passing resumes).
      if (state.mode === 'swallow') return;
      if (state.delayMs > 0) setTimeout(() => client.write(chunk), state.delayMs);
      else client.write(chunk);
    });
    upstream.on('end', () => {
      if (state.mode === 'swallow') return;
      // After the delayed chunks (timers of equal delay fire in order).
      if (state.delayMs > 0) setTimeout(() => client.end(), state.delayMs);
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
      state.mode = m;
      // Going down cuts kept-alive connections too, as a pulled cable would.
      if (m === 'drop') for (const s of sockets) s.destroy();
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    requests,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

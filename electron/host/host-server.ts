/**
 * The node host: serves the built renderer and the IPC contract (over a WebSocket)
 * on 127.0.0.1, for browsers, kiosks and the end-to-end tests. It reaches the same core
 * as Electron main; only the transport differs. host-cli runs that core in a child process
 * (core-process/core-process.ts) — the origins it must accept are known once the server
 * listens, so it is given a function that starts it with them; unit tests give a core
 * running in their own process.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Core } from '../core/app-core';
import { inProcessLink, type CoreLink } from '../core-process/core-link';
import { createWsBridge } from './ws-bridge';

export const HOST_MESSAGES = {
  /** host-cli, when the core process ends without being asked (core-process.ts says why it is not restarted). */
  coreExited: "Ringup's core stopped unexpectedly ({how}); the host stops too. Start it again; nothing it had saved is lost.",
} as const;

export interface HostOptions {
  /** A core in this process (unit tests), or what starts the core process once the host's origins are known (host-cli). */
  core: Core | ((allowedOrigins: readonly string[]) => Promise<CoreLink>);
  /** Folder with the built renderer (index.html + assets). */
  rendererDir: string;
  port?: number;
  /** Fixed token for tests; a random one per launch otherwise. */
  token?: string;
  logError?: (channel: string, err: unknown) => void;
  /** Connections that have not said hello yet, open at once (ws-bridge.ts PENDING_LIMIT by default). */
  maxPendingConnections?: number;
  /** How long a connection may take to say hello, ms (ws-bridge.ts HELLO_TIMEOUT_MS by default). */
  helloTimeoutMs?: number;
}

export interface RunningHost {
  /** http://127.0.0.1:PORT/ */
  origin: string;
  /** URL to open: origin plus `#token=…` (the fragment never reaches a server). */
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

export async function startHost(opts: HostOptions): Promise<RunningHost> {
  if (!existsSync(opts.rendererDir)) {
    throw new Error(`The renderer is not built (${opts.rendererDir} is missing). Run "npm run build" first.`);
  }
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const app = Fastify({ logger: false });
  let allowedHosts = new Set<string>();

  // DNS-rebinding guard: answer only requests addressed to our own loopback host:port.
  app.addHook('onRequest', async (req, reply) => {
    if (!allowedHosts.has(req.headers.host ?? '')) {
      return reply.code(403).type('text/plain').send('Forbidden');
    }
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cache-Control', 'no-store');
    return payload;
  });
  await app.register(fastifyStatic, { root: opts.rendererDir, index: ['index.html'], wildcard: false });

  await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];

  let link: CoreLink;
  try {
    link = typeof opts.core === 'function' ? await opts.core(origins) : inProcessLink(opts.core, origins, opts.logError);
  } catch (err) {
    await app.close();
    throw err;
  }
  const bridge = createWsBridge({
    token,
    allowedOrigins: origins,
    dispatch: link.dispatch,
    events: link.events,
    onDisconnect: (callerId) => link.disconnect(callerId),
    ...(opts.maxPendingConnections !== undefined ? { maxPending: opts.maxPendingConnections } : {}),
    ...(opts.helloTimeoutMs !== undefined ? { helloTimeoutMs: opts.helloTimeoutMs } : {}),
  });
  app.server.on('upgrade', bridge.handleUpgrade);

  const origin = `http://127.0.0.1:${port}/`;
  return {
    origin,
    url: `${origin}#token=${token}`,
    token,
    port,
    async close() {
      await bridge.close();
      await app.close();
    },
  };
}

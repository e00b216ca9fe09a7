/**
 * `--engine`: the store server hosts the embedded gateway engine (the same engine the app embeds
 * and `npm run gateway` runs), so every register of the store shares one sandbox gateway and a
 * transaction taken on one register can be refunded from another (issue 24, point 5).
 *
 * The engine runs in this process on 127.0.0.1 (its own Host check stays on); registers reach it
 * at `https://<store server>/gateway/v2/…`, proxied over the store server's own TLS, so they pin
 * one certificate for both. The proxy passes bodies through untouched and never logs them (they
 * carry card data). The join answer gives each register the engine's seeded user as its gateway
 * credentials (store-server.ts).
 *
 * Simplifications: the engine keeps its own SQLite in `--engine-data` (the one state of the store
 * server outside PostgreSQL), so only the server process started with --engine hosts it; links
 * the engine writes into its answers (payment pages) name its loopback address, not the proxy's.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { startEngine } from '../gateway/engine';
import { STORE_ROUTES } from '../../shared/store/store-wire';
import { STORE_ERR } from './store-errors';
import type { StoreGateway } from './store-server';

/** The default folder of the hosted engine's SQLite, beside the standalone engine's (`.ringup-data/gateway`). */
export const DEFAULT_ENGINE_DATA = '.ringup-data/store-engine';

/** The engine's own request limit is 1 MB; a little room for the wrapper. */
const PROXY_BODY_LIMIT = 2 * 1024 * 1024;
const PROXY_TIMEOUT_MS = 60_000;

/** Headers that belong to one connection, not to the request (RFC 9110 §7.6.1), plus the Host we replace. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'content-length']);

function forwardHeaders(h: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

export async function startStoreGateway(dataDir: string, log: (line: string) => void = (line) => console.error(line)): Promise<StoreGateway & { loopbackUrl: string }> {
  const engine = await startEngine({ dataDir, host: '127.0.0.1', port: 0, log });
  const target = new URL(engine.baseUrl);
  const c = engine.credentials;

  const proxy = async (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.slice(STORE_ROUTES.gateway.length) || '/';
    const body = Buffer.isBuffer(req.body) ? req.body : null;
    const answer = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer } | null>((resolve) => {
      const out = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path, headers: { ...forwardHeaders(req.headers), host: target.host, ...(body ? { 'content-length': String(body.length) } : {}) }, timeout: PROXY_TIMEOUT_MS },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', () => resolve(null));
        },
      );
      out.on('timeout', () => out.destroy());
      out.on('error', () => resolve(null));
      out.end(body ?? undefined);
    });
    if (!answer) return reply.code(502).send({ errors: { general: [STORE_ERR.engineAway] } });
    for (const [k, v] of Object.entries(forwardHeaders(answer.headers))) reply.header(k, v);
    return reply.code(answer.status).send(answer.body);
  };

  return {
    loopbackUrl: engine.baseUrl,
    credentials: {
      developerId: c.developer_id,
      userId: c.user_id,
      userApiKey: c.user_api_key,
      locationId: c.location_id ?? null,
      productTransactionId: c.cc_product_transaction_id ?? null,
    },
    register(app: FastifyInstance) {
      // Its own scope: bodies pass through as bytes (the engine parses them, JSON or XML), whatever their type.
      void app.register(async (scope) => {
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PROXY_BODY_LIMIT }, (_req, raw, done) => done(null, raw));
        scope.all(STORE_ROUTES.gateway, proxy);
        scope.all(`${STORE_ROUTES.gateway}/*`, proxy);
      });
    },
    close: () => engine.close(),
  };
}

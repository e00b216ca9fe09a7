/**
 * The embedded gateway engine: a v2-compatible HTTP server on 127.0.0.1 backed by
 * SQLite. This is the engine's public face for the rest of the core; everything
 * else in electron/gateway/ is an implementation detail behind it.
 *
 * FOUNDATION STUB: only `/v2/users/me` and `/health` exist yet; the v2 resources
 * arrive with the engine issues. The signature of `startEngine` is the contract the
 * core relies on and stays.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';

export interface EngineCredentials {
  base_url: string;
  developer_id: string;
  user_id: string;
  user_api_key: string;
  location_id: string;
  cc_product_transaction_id: string;
  ach_product_transaction_id: string;
}

export interface EngineOptions {
  /** Folder for the engine's SQLite database and credentials.json. */
  dataDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
}

export interface RunningEngine {
  /** e.g. http://127.0.0.1:40123/v2 */
  baseUrl: string;
  credentials: EngineCredentials;
  close(): Promise<void>;
}

const newId = () => randomUUID();

export async function startEngine(opts: EngineOptions): Promise<RunningEngine> {
  const host = opts.host ?? '127.0.0.1';
  mkdirSync(opts.dataDir, { recursive: true });
  const credPath = join(opts.dataDir, 'credentials.json');
  const saved: Omit<EngineCredentials, 'base_url'> = existsSync(credPath)
    ? (JSON.parse(readFileSync(credPath, 'utf8')) as EngineCredentials)
    : {
        developer_id: newId(),
        user_id: newId(),
        user_api_key: randomBytes(16).toString('hex'),
        location_id: newId(),
        cc_product_transaction_id: newId(),
        ach_product_transaction_id: newId(),
      };

  const app = Fastify({ logger: false });
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/v2/users/me', async (req, reply) => {
    if (req.headers['user-id'] !== saved.user_id || req.headers['user-api-key'] !== saved.user_api_key) {
      return reply.code(401).send({ errors: { general: ['Unauthorized.'] } });
    }
    return { user: { id: saved.user_id, username: 'admin', user_type_id: 250 } };
  });
  await app.listen({ host, port: opts.port ?? 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const credentials: EngineCredentials = { base_url: `http://${host}:${port}/v2`, ...saved };
  writeFileSync(credPath, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  return { baseUrl: credentials.base_url, credentials, close: () => app.close() };
}

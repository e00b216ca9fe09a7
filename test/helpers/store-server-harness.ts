/**
 * A store server in the test's own process on a real PostgreSQL (postgres-server.ts), on
 * 127.0.0.1 port 0, and a small HTTPS client that pins its certificate the way a register does
 * (the PEM as the only CA, the fingerprint compared, the host name not). `storeHttp` answers the
 * status and the parsed body of any request, refusals included.
 */
import type { PeerCertificate } from 'node:tls';
import { Agent, request } from 'node:https';
import { codeProof } from '../../electron/common/store-code';
import { migrateStore, openStorePool, type StorePool } from '../../electron/store-server/store-database';
import { loadStoreIdentity, type StoreIdentity } from '../../electron/store-server/store-identity';
import { makeSetupCode } from '../../electron/store-server/store-registers';
import { startStoreServer, type RunningStoreServer, type StoreGateway } from '../../electron/store-server/store-server';
import { joinCodeSchema, type JoinAnswer } from '../../shared/store/store-wire';
import type { PostgresServer } from './postgres-server';

export interface StoreAnswer<T = unknown> {
  status: number;
  body: T;
}

/** A keep-alive agent that trusts exactly this certificate (by its fingerprint, whatever name it carries). */
export function pinnedAgent(certificatePem: string, fingerprint: string): Agent {
  return new Agent({
    keepAlive: true,
    ca: certificatePem,
    checkServerIdentity: (_host: string, cert: PeerCertificate) => (cert.fingerprint256 === fingerprint ? undefined : new Error(`certificate ${cert.fingerprint256} is not the store's`)),
  });
}

export interface StoreHttpOptions {
  method?: string;
  token?: string;
  body?: unknown;
  /** Sent as is (bad-input tests). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export function storeHttp<T = unknown>(agent: Agent, baseUrl: string, path: string, opts: StoreHttpOptions = {}): Promise<StoreAnswer<T>> {
  const url = new URL(path, baseUrl);
  const payload = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const headers: Record<string, string> = { ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? (payload === undefined ? 'GET' : 'POST'), headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          /* not JSON: the text itself */
        }
        resolve({ status: res.statusCode ?? 0, body: body as T });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export interface StoreHarness {
  databaseUrl: string;
  pool: StorePool;
  identity: StoreIdentity;
  server: RunningStoreServer;
  url: string;
  agent: Agent;
  /** The setup code printed at start (null once a register has joined). */
  setupCode: string | null;
  http<T = unknown>(path: string, opts?: StoreHttpOptions): Promise<StoreAnswer<T>>;
  /** Joins a register with a code as typed (grouped or not); throws unless the server took it. */
  join(code: string, registerName: string): Promise<JoinAnswer>;
  close(): Promise<void>;
}

/** Migrates `database` (created on `pg` when new), loads the identity and starts a server process in this one. */
export async function startStoreHarness(pg: PostgresServer, database: string, opts: { create?: boolean; gateway?: StoreGateway } = {}): Promise<StoreHarness> {
  const databaseUrl = opts.create === false ? pg.url.replace(/\/postgres$/, `/${database}`) : pg.createDatabase(database);
  const pool = openStorePool(databaseUrl);
  await migrateStore(pool);
  const identity = await loadStoreIdentity(pool);
  const server = await startStoreServer({ pool, databaseUrl, identity, host: '127.0.0.1', port: 0, ...(opts.gateway ? { gateway: opts.gateway } : {}) });
  const setupCode = await makeSetupCode(pool, identity.fingerprint);
  const agent = pinnedAgent(identity.certificatePem, identity.fingerprint);
  const http = <T>(path: string, o?: StoreHttpOptions) => storeHttp<T>(agent, server.url, path, o);
  return {
    databaseUrl,
    pool,
    identity,
    server,
    url: server.url,
    agent,
    setupCode,
    http,
    async join(code, registerName) {
      const r = await http<JoinAnswer>('/v1/join', { body: { codeProof: codeProof(joinCodeSchema.parse(code)), registerName } });
      if (r.status !== 201) throw new Error(`join answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r.body;
    },
    async close() {
      agent.destroy();
      await server.close();
      await pool.end();
    },
  };
}

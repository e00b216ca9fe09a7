/**
 * The store server (issue 24): fastify over HTTPS with the store's own certificate, its only state
 * PostgreSQL. Registers join with a one-time code, push their outbox, long-poll for what the
 * others did, and read the store's figures; a manager renames and removes registers and closes
 * the store's day. Routes and bodies are shared/store/store-wire.ts's, checked with its schemas.
 *
 * Why the `pg` driver directly, not a query builder that speaks both PostgreSQL and SQLite
 * (Kysely): the server's SQL is PostgreSQL's on purpose (advisory locks give seq in commit
 * order, LISTEN/NOTIFY wakes the long polls, jsonb keeps rows whole, ON CONFLICT makes pushes
 * idempotent), and the registers keep their synchronous better-sqlite3 code: a dialect-neutral
 * builder would buy nothing on either side and would make the register's money paths async.
 *
 * Every refusal is `{"errors": {field: [sentence]}}` (store-errors.ts): 400 bad input, 401 an
 * unknown or removed register, 404/405, 409/410 a used/expired code, 413 too large, 429 too many
 * wrong codes. A 5xx means the server or its database failed, never the request.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  PULL_WAIT_MAX_MS,
  STORE_AUTH_SCHEME,
  STORE_ROUTES,
  SYNC_BATCH_MAX,
  WAITING_HEADER,
  inviteRequestSchema,
  joinRequestSchema,
  pushRequestSchema,
  registerRenameSchema,
  storeCloseRequestSchema,
  type JoinAnswer,
  type StoreHello,
} from '../../shared/store/store-wire';
import type { StorePool } from './store-database';
import { STORE_ERR, StoreError, refuse } from './store-errors';
import { pullEvents, pushEvents } from './store-events';
import { closeStoreDay, listStoreDays, storeFigures } from './store-figures';
import type { StoreIdentity } from './store-identity';
import { EventsListener } from './store-listener';
import { authenticate, changeRegister, invite, joinStore, listRegisters, type AuthenticatedRegister } from './store-registers';
import { WrongCodeLimiter } from './wrong-code-limiter';

declare const __RINGUP_VERSION__: string | undefined;
export const STORE_SERVER_VERSION: string = typeof __RINGUP_VERSION__ === 'string' ? __RINGUP_VERSION__ : '0.0.0-dev';

/** A push carries up to SYNC_BATCH_MAX events, a cart snapshot a few kB each. */
const PUSH_BODY_LIMIT = 16 * 1024 * 1024;
const BODY_LIMIT = 64 * 1024;
/** How often a server process says it is still there (store_servers.seen_ts). */
const HEARTBEAT_MS = 60_000;
/** Addresses of server processes not seen for this long are left out of the join answer. */
const ADDRESS_KEPT_MS = 7 * 24 * 60 * 60_000;

/** The store's shared gateway (`--engine`): the proxy to it and the credentials the join answer gives. */
export interface StoreGateway {
  /** Registers /gateway/* on the server. */
  register(app: ReturnType<typeof Fastify>): void;
  credentials: Omit<NonNullable<JoinAnswer['gateway']>, 'baseUrl'>;
  close(): Promise<void>;
}

export interface StoreServerOptions {
  pool: StorePool;
  databaseUrl: string;
  identity: StoreIdentity;
  host: string;
  port: number;
  /** How registers reach this process (default: from host and the port listened on). */
  addresses?: (port: number) => string[];
  gateway?: StoreGateway;
}

export interface RunningStoreServer {
  /** The first address, e.g. https://127.0.0.1:7443 */
  url: string;
  addresses: string[];
  port: number;
  /** Pulls this process holds now (tests wait on it before pushing, to prove a held pull wakes). */
  pullsWaiting(): number;
  close(): Promise<void>;
}

const pullQuerySchema = z.strictObject({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(SYNC_BATCH_MAX).default(SYNC_BATCH_MAX),
  waitMs: z.coerce.number().int().min(0).max(PULL_WAIT_MAX_MS).default(0),
});
const figuresQuerySchema = z.strictObject({
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
});
const registerParamsSchema = z.strictObject({ id: z.string().min(1).max(64) });

/** zod's issues as the envelope's fields (`events.3.key`), the message as the sentence. */
function zodErrors(err: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of err.issues) (out[issue.path.length > 0 ? issue.path.join('.') : 'general'] ??= []).push(issue.message);
  return out;
}

function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new StoreError(400, zodErrors(r.error));
  return r.data;
}

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** `x-ringup-waiting`: a count, or null when absent or not one. */
function waitingOf(req: FastifyRequest): number | null {
  const raw = req.headers[WAITING_HEADER];
  return typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

/** `https://host:port` for an address (IPv6 in brackets). */
export function httpsAddress(host: string, port: number): string {
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function startStoreServer(opts: StoreServerOptions): Promise<RunningStoreServer> {
  const { pool, identity } = opts;
  const listener = new EventsListener(opts.databaseUrl);
  await listener.start();
  const limiter = new WrongCodeLimiter();
  const instance = randomUUID();
  /** Registers holding a pull on this process now (the Registers screen's "connected"). */
  const holding = new Map<string, number>();

  const app = Fastify({
    https: { key: identity.keyPem, cert: identity.certificatePem },
    logger: false,
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: (_err, _req, reply) => void (reply as FastifyReply).code(400).send({ errors: { general: [STORE_ERR.badRequest] } }),
  });

  app.setErrorHandler((err: FastifyError | StoreError | Error, _req, reply) => {
    if (err instanceof StoreError) return reply.code(err.status).send({ errors: err.errors });
    const e = err as FastifyError;
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send({ errors: { general: [STORE_ERR.bodyTooLarge] } });
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.code(415).send({ errors: { general: ['Send the body as application/json.'] } });
    if (e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || e instanceof SyntaxError || e.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return reply.code(400).send({ errors: { general: [STORE_ERR.badJson] } });
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) return (reply as FastifyReply).code(e.statusCode).send({ errors: { general: [STORE_ERR.badRequest] } });
    // The database away or a fault of ours: said plainly, logged without the request's body.
    console.error(`store server: ${e.message}`);
    return reply.code(503).send({ errors: { general: [STORE_ERR.internal] } });
  });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ errors: { general: [STORE_ERR.notFound] } }));

  /** The register behind the request's token, or a 401. */
  const authed = async (req: FastifyRequest): Promise<AuthenticatedRegister> => {
    const header = req.headers.authorization ?? '';
    const [scheme, token] = header.split(' ');
    if (scheme !== STORE_AUTH_SCHEME || !token || !TOKEN.test(token)) throw refuse(401, STORE_ERR.unauthorized);
    const reg = await authenticate(pool, token, waitingOf(req));
    if (!reg) throw refuse(401, STORE_ERR.unauthorized);
    return reg;
  };

  let port = opts.port;
  const ownAddresses = () => (opts.addresses ? opts.addresses(port) : [httpsAddress(opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host, port)]);
  const storeAddresses = async (): Promise<string[]> => {
    const { rows } = await pool.query<{ address: string }>('SELECT address FROM store_servers WHERE seen_ts > $1 ORDER BY seen_ts DESC, address', [Date.now() - ADDRESS_KEPT_MS]);
    const mine = ownAddresses();
    return [...new Set([...mine, ...rows.map((r) => r.address)])];
  };

  app.get(STORE_ROUTES.hello, async (): Promise<StoreHello> => ({
    name: identity.name,
    storeId: identity.storeId,
    fingerprint: identity.fingerprint,
    certificate: identity.certificatePem,
    version: STORE_SERVER_VERSION,
    addresses: await storeAddresses(),
  }));

  app.post(STORE_ROUTES.join, async (req, reply): Promise<JoinAnswer> => {
    const ip = req.ip;
    limiter.check(ip);
    const body = parse(joinRequestSchema, req.body);
    try {
      const answer = await joinStore(pool, body, { storeId: identity.storeId, addresses: await storeAddresses(), gateway: gatewayFor(req) });
      reply.code(201);
      return answer;
    } catch (err) {
      if (err instanceof StoreError && err.status === 400) limiter.wrong(ip);
      throw err;
    }
  });

  /** The shared gateway as the register reaches it: through the address it used for this request. */
  const gatewayFor = (req: FastifyRequest): JoinAnswer['gateway'] => {
    if (!opts.gateway) return null;
    const host = /^[A-Za-z0-9.:[\]-]{1,300}$/.test(req.headers.host ?? '') ? req.headers.host! : new URL(ownAddresses()[0]!).host;
    return { baseUrl: `https://${host}${STORE_ROUTES.gateway}/v2`, ...opts.gateway.credentials };
  };

  app.post(STORE_ROUTES.invitations, async (req, reply) => {
    const reg = await authed(req);
    const body = parse(inviteRequestSchema, req.body);
    reply.code(201);
    return invite(pool, reg, body.codeProof, body.sealedPepper);
  });

  app.post(STORE_ROUTES.events, { bodyLimit: PUSH_BODY_LIMIT }, async (req) => {
    const reg = await authed(req);
    const body = parse(pushRequestSchema, req.body);
    const answer = await pushEvents(pool, reg.id, body.events);
    listener.seen(answer.lastSeq);
    return answer;
  });

  app.get(STORE_ROUTES.pull, async (req, reply) => {
    const reg = await authed(req);
    const q = parse(pullQuerySchema, req.query);
    let answer = await pullEvents(pool, reg.id, q.after, q.limit);
    if (answer.lastSeq > q.after || q.waitMs === 0) return answer;
    // Nothing yet: hold the request until something is stored, the wait is over or the register hangs up.
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    holding.set(reg.id, (holding.get(reg.id) ?? 0) + 1);
    try {
      const until = Date.now() + q.waitMs;
      while (answer.lastSeq <= q.after && !gone.signal.aborted && Date.now() < until) {
        await listener.waitAfter(q.after, until - Date.now(), gone.signal);
        answer = await pullEvents(pool, reg.id, q.after, q.limit);
        if (listener.isClosed) break;
      }
    } finally {
      const n = (holding.get(reg.id) ?? 1) - 1;
      if (n > 0) holding.set(reg.id, n);
      else holding.delete(reg.id);
    }
    return answer;
  });

  app.get(STORE_ROUTES.registers, async (req) => {
    await authed(req);
    return listRegisters(pool, new Set(holding.keys()));
  });

  app.patch(STORE_ROUTES.register, async (req) => {
    const reg = await authed(req);
    const { id } = parse(registerParamsSchema, req.params);
    const { name } = parse(registerRenameSchema, req.body);
    await changeRegister(pool, reg, id, name);
    return listRegisters(pool, new Set(holding.keys()));
  });

  app.delete(STORE_ROUTES.register, async (req) => {
    const reg = await authed(req);
    const { id } = parse(registerParamsSchema, req.params);
    await changeRegister(pool, reg, id, null);
    return listRegisters(pool, new Set(holding.keys()));
  });

  app.get(STORE_ROUTES.figures, async (req) => {
    await authed(req);
    const q = parse(figuresQuerySchema, req.query);
    return storeFigures(pool, q.from, q.to);
  });

  app.post(STORE_ROUTES.storeDays, async (req, reply) => {
    const reg = await authed(req);
    const body = parse(storeCloseRequestSchema, req.body);
    reply.code(201);
    return closeStoreDay(pool, reg, body);
  });

  app.get(STORE_ROUTES.storeDayList, async (req) => {
    await authed(req);
    return listStoreDays(pool);
  });

  opts.gateway?.register(app);

  await app.listen({ host: opts.host, port: opts.port });
  const addr = app.server.address();
  port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const addresses = ownAddresses();

  const recordAddresses = async () => {
    const now = Date.now();
    await pool.query(
      `INSERT INTO store_servers (address, instance, started_ts, seen_ts) SELECT a, $2, $3, $3 FROM unnest($1::text[]) AS a
       ON CONFLICT (address) DO UPDATE SET instance = excluded.instance, seen_ts = excluded.seen_ts`,
      [addresses, instance, now],
    );
  };
  await recordAddresses();
  const heartbeat = setInterval(() => void recordAddresses().catch(() => {}), HEARTBEAT_MS);
  heartbeat.unref();

  let closing: Promise<void> | null = null;
  return {
    url: addresses[0]!,
    addresses,
    port,
    pullsWaiting: () => listener.waiting,
    close() {
      closing ??= (async () => {
        clearInterval(heartbeat);
        // Waiting pulls answer now (with what there is) rather than holding the close.
        await listener.close();
        await app.close();
        await opts.gateway?.close();
        // Stopped on purpose: its addresses leave the list (a killed process's stay until they age out).
        await pool.query('DELETE FROM store_servers WHERE instance = $1', [instance]).catch(() => {});
      })();
      return closing;
    },
  };
}

/**
 * The embedded gateway engine: a v2-compatible HTTP server on 127.0.0.1 backed by
 * SQLite. This is the engine's public face for the rest of the core (app-core and the
 * standalone CLI); everything else in electron/gateway/ is behind it. See README.md.
 */
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyReply, type RouteOptions } from 'fastify';
import { Authenticator } from './framework/auth';
import { MovableClock, type Clock } from './framework/clock';
import { createScheduler } from './framework/scheduler';
import type { EngineContext, EngineModule, EngineOptions, SeedInfo } from './framework/context';
import { registerCrudRoutes } from './framework/crud-routes';
import { openDatabase, type Db } from './framework/database';
import { createContext } from './framework/engine-context';
import type { RecordEvent } from './framework/record-events';
import { referenceOpenApi, registerReferenceRoutes } from './framework/api-reference';
import { MSG } from './framework/errors';
import { BODY_LIMIT, HTTP_SERVER_OPTIONS, installPlumbing, isLoopback, originForm, rawEnvelope } from './framework/http-plumbing';
import { serverTimeouts } from './framework/limits';
import { buildOpenApiDocument } from './framework/openapi-document';
import { resourceOpenApi } from './framework/resource-openapi';
import { installPermissionCheck, type RouteAllow } from './framework/permissions';
import { withPermissions } from './framework/permission-openapi';
import { migrate } from './framework/migrations';
import { defaultModules } from './engine-modules';
import { loadSeedInfo, newSeedInfo, seedMerchant } from './merchant/seed';
import { CREDENTIALS_FILE, DATABASE_FILE, PUBLIC_INFO_FILE } from './engine-files';

export type { EngineOptions, EngineModule, EngineContext } from './framework/context';
// Asked by the app before the engine starts (is a copied folder sealed under another key?).
export { engineFolderSeal, type EngineFolderSeal } from './engine-folder-seal';

export interface EngineCredentials {
  base_url: string;
  developer_id: string;
  user_id: string;
  user_api_key: string;
  location_id: string;
  cc_product_transaction_id: string;
  ach_product_transaction_id: string;
  /** Added by modules (OAuth: auth_url, oauth, login, developer_encryption_key). */
  [extra: string]: unknown;
}

export interface RunningEngine {
  /** e.g. http://127.0.0.1:40123/v2 */
  baseUrl: string;
  credentials: EngineCredentials;
  close(): Promise<void>;
  /** For tests and tools: the database, the clock, the module context and seed ids. */
  db: Db;
  clock: Clock;
  ctx: EngineContext;
  seed: SeedInfo;
  /** Deletes every record (reference data stays) and seeds again with the same credentials. */
  reset(): void;
  /** Every route the HTTP server registered (method, fastify path), for tests and tools. */
  routes: readonly EngineRoute[];
  /** The OpenAPI 3.1 document served at /openapi.json. */
  openapi(): Record<string, unknown>;
}

export interface EngineRoute {
  method: string;
  url: string;
  /** Who may call it (framework/permissions.ts); every /v2 and /sandbox route has one. */
  allow?: RouteAllow;
}

/** `info.version` of the OpenAPI document: the interface version, then the engine's. */
export const OPENAPI_VERSION = '2.0.0+ringup.1';

export { CREDENTIALS_FILE, DATABASE_FILE, PUBLIC_INFO_FILE };

/** Fields named like a secret (…_key, …secret, …password) at any depth. */
const SECRET_FIELD = /(_key|secret|password)$/;

export function withoutSecrets(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !SECRET_FIELD.test(k)).map(([k, v]) => [k, withoutSecrets(v)]));
}

function runSeed(ctx: EngineContext, modules: EngineModule[], info: SeedInfo): void {
  ctx.db.transaction(() => {
    seedMerchant(ctx, info);
    for (const m of modules) m.seed?.(ctx, info);
  })();
}

function wipe(db: Db, modules: EngineModule[]): void {
  const keep = new Set(['schema_migrations', 'engine_meta', ...modules.flatMap((m) => m.referenceTables ?? [])]);
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((r) => r.name);
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      for (const t of tables) if (!keep.has(t)) db.prepare(`DELETE FROM "${t}"`).run();
    })();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

export async function startEngine(opts: EngineOptions): Promise<RunningEngine> {
  const host = opts.host ?? '127.0.0.1';
  // Owner-only like the database in it (issue 20, point 9): mkdirSync's mode reaches only a
  // folder it creates, through the umask, so an existing or umask-022 folder is tightened.
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  chmodSync(opts.dataDir, 0o700);
  const dbPath = join(opts.dataDir, DATABASE_FILE);
  const db = openDatabase(dbPath, { synchronous: opts.synchronous });
  // The database holds key hashes and the vault: owner-only, like credentials.json.
  for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
  const modules = opts.modules ?? defaultModules();
  const clock = opts.clock ?? new MovableClock();
  let ctx: EngineContext | undefined;
  let app: ReturnType<typeof Fastify> | undefined;
  try {
    migrate(db, modules.flatMap((m) => m.migrations ?? []));
    const auth = new Authenticator(db);
    const bearerModule = modules.find((m) => m.resolveBearer);
    if (bearerModule) auth.bearer = (token, developerId) => bearerModule.resolveBearer?.(token, developerId);
    ctx = createContext(db, clock, opts, modules.flatMap((m) => m.resources ?? []), () => auth.invalidate());
    for (const m of modules) await m.init?.(ctx);
    // Modules that follow record events (an invoice's balance follows its payments' refunds
    // and voids) run after whatever init installed (postbacks), in the same write.
    const followers = modules.filter((m) => m.onRecordEvent);
    if (followers.length > 0) {
      const installed = ctx.recordEvent;
      ctx.recordEvent = function (this: EngineContext, e: RecordEvent) {
        installed.call(this, e);
        for (const m of followers) m.onRecordEvent?.(this, e);
      };
    }

    let seed = loadSeedInfo(ctx);
    if (!seed) {
      seed = newSeedInfo();
      runSeed(ctx, modules, seed);
    }

    const timeouts = serverTimeouts(opts.requestTimeoutMs, opts.headersTimeoutMs);
    app = Fastify({
      logger: false,
      bodyLimit: BODY_LIMIT,
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8192 },
      ...timeouts,
      http: { ...timeouts.http, ...HTTP_SERVER_OPTIONS },
      // Every request line in origin form before routing (absolute-form targets included).
      rewriteUrl: originForm,
      // Failures fastify answers itself still speak the envelope.
      frameworkErrors: (_err, _req, reply) => {
        void (reply as FastifyReply).code(400).type('application/json; charset=utf-8').send({ errors: { general: [MSG.BAD_URL_ENCODING] } });
      },
      clientErrorHandler: (err, socket) => {
        const e = err as Error & { code?: string };
        if (e.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
        if (e.code === 'ERR_HTTP_REQUEST_TIMEOUT') return void socket.end(rawEnvelope(408, 'Request Timeout', MSG.REQUEST_TIMEOUT));
        if (e.code === 'HPE_HEADER_OVERFLOW') return void socket.end(rawEnvelope(431, 'Request Header Fields Too Large', MSG.HEADERS_TOO_LARGE));
        socket.end(rawEnvelope(400, 'Bad Request', MSG.BAD_REQUEST));
      },
    });
    installPlumbing(app, { auth, checkHost: isLoopback(host), log: ctx.log, sandbox: !opts.production });
    // Before any route: a /v2 or /sandbox route without a declaration of who may call it fails here.
    installPermissionCheck(app, { production: opts.production === true });
    const routes: EngineRoute[] = [];
    app.addHook('onRoute', (r: RouteOptions) => {
      for (const m of [r.method].flat()) if (m !== 'HEAD') routes.push({ method: String(m), url: r.url, ...(r.config?.allow ? { allow: r.config.allow } : {}) });
    });
    app.get('/health', async () => ({ status: 'ok' }));
    // Built once, on first use (the server URL is known only after listen).
    let document: Record<string, unknown> | undefined;
    const docCtx = ctx;
    // Each operation shows who may perform it, read from the same declarations the check uses.
    const openapi = () =>
      (document ??= withPermissions(
        buildOpenApiDocument({ version: OPENAPI_VERSION, serverUrl: docCtx.origin }, [
          referenceOpenApi(),
          ...[...docCtx.resources.values()].map(resourceOpenApi),
          ...modules.flatMap((m) => (m.openapi ? [m.openapi(docCtx)] : [])),
        ]),
        routes,
      ));
    registerReferenceRoutes(app, openapi);
    for (const def of ctx.resources.values()) registerCrudRoutes(app, ctx, def);
    for (const m of modules) m.routes?.(app, ctx);

    await app.listen({ host, port: opts.port ?? 0 });
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : opts.port;
    const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    ctx.origin = `http://${urlHost}:${port}`;

    const credentials: EngineCredentials = {
      base_url: `${ctx.origin}/v2`,
      developer_id: seed.developerId,
      user_id: seed.userId,
      user_api_key: seed.userApiKey,
      location_id: seed.locationId,
      cc_product_transaction_id: seed.ccProductTransactionId,
      ach_product_transaction_id: seed.achProductTransactionId,
    };
    for (const m of modules) Object.assign(credentials, m.credentials?.(ctx, seed) ?? {});
    const credPath = join(opts.dataDir, CREDENTIALS_FILE);
    if (opts.vaultKey) {
      // Embedded in the app: the credentials go to the core over the process channel only;
      // a file would put the admin key in the data folder (one left by an older version
      // goes). engine.json keeps what is not secret: where the engine listens and its ids.
      rmSync(credPath, { force: true });
      writeFileSync(join(opts.dataDir, PUBLIC_INFO_FILE), JSON.stringify(withoutSecrets(credentials), null, 2) + '\n', { mode: 0o600 });
    } else {
      writeFileSync(credPath, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
      chmodSync(credPath, 0o600);
    }

    const scheduler = createScheduler(ctx, modules);
    ctx.runDueWork = (locationId) => scheduler.runDue(locationId);
    if (opts.schedulerIntervalMs !== 0) scheduler.start(opts.schedulerIntervalMs);

    const started = { ctx, app, seed };
    let closed = false;
    return {
      baseUrl: credentials.base_url,
      credentials,
      db,
      clock,
      ctx,
      seed,
      routes,
      openapi,
      reset() {
        wipe(db, modules);
        started.ctx.invalidateAuth();
        runSeed(started.ctx, modules, started.seed);
      },
      async close() {
        if (closed) return;
        closed = true;
        await scheduler.stop();
        await started.app.close();
        for (const m of [...modules].reverse()) await m.close?.();
        db.close();
      },
    };
  } catch (err) {
    await app?.close().catch(() => {});
    if (db.open) db.close();
    throw err;
  }
}

/**
 * What an engine module receives: the database, the clock, the id generator, the
 * resource registry and the generic helpers (serialise, list, find-visible, validate,
 * insert, update). Also the types of the authenticated caller and of a module.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from './clock';
import type { Db, Statement } from './database';
import type { IdKind } from './ids';
import type { Migration } from './migrations';
import type { OpenApiPart } from './openapi-document';
import type { ResourceDef, Row, WriteInput } from './resource';
import type { DueWork } from './due-work';
import type { NotificationInput } from './notifications';
import type { RecordEvent } from './record-events';
import type { AuthInfo } from './auth-info';

export interface EngineOptions {
  /** Folder for the engine's SQLite database and credentials.json. */
  dataDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Defaults to a MovableClock on the wall clock. */
  clock?: Clock;
  /** SQLite synchronous mode (default FULL). */
  synchronous?: 'FULL' | 'NORMAL';
  /** 32-byte key for encrypting vaulted account numbers (used by the payments module). */
  vaultKey?: Buffer;
  /** WAL size, in frames, from which the payments writer helps the WAL start over (payments/wal-restart.ts; default 4096). */
  walRestartFrames?: number;
  /** Replaces the default module list (tests). */
  modules?: EngineModule[];
  /** Length of a terminal-timeout second in ms (default 1000; device tests scale it down). */
  deviceSecondMs?: number;
  /** Diagnostic log line sink (default: nothing; never receives card data). */
  log?: (line: string) => void;
  /** Slow-client limits (ms): a whole request, and its headers (defaults in framework/limits.ts). */
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** A production-mode engine: no sandbox extensions (the sandbox clock answers 404). */
  production?: boolean;
  /** Scheduler tick in ms (default in framework/scheduler.ts); 0 = no timer (tests run due work themselves). */
  schedulerIntervalMs?: number;
  /** SMTP transport for the notification outbox (else `RINGUP_SMTP_URL`; else e-mail stays queued). */
  smtp?: SmtpOptions;
  /** Postback receiver time-out in ms (default POSTBACK_TIMEOUT_MS, 10 s; tests shorten it). */
  postbackTimeoutMs?: number;
  /** Postback poll tick in ms for retries falling due on the wall clock (default 1000; 0 = only due work and kicks). */
  postbackPollMs?: number;
}

/** Where the outbox's e-mail goes (nodemailer SMTP options). */
export interface SmtpOptions {
  host: string;
  port: number;
  /** TLS from the start (port 465); false = plain, upgraded with STARTTLS when offered. */
  secure?: boolean;
  user?: string;
  pass?: string;
  /** From header (default `Ringup <no-reply@ringup.localhost>`). */
  from?: string;
}

export type { AuthInfo } from './auth-info';

/**
 * The declarations' hooks (resource.ts) receive this context: merged into resource.ts's
 * `HookContext` here, so resource.ts need not import this file (which imports it).
 */
declare module './resource' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: HookContext is EngineContext
  interface HookContext extends EngineContext {}
}

export interface SeedInfo {
  developerId: string;
  userId: string;
  userApiKey: string;
  parentLocationId: string;
  locationId: string;
  ccProductTransactionId: string;
  achProductTransactionId: string;
  terminalId: string;
}

export interface ListExtra {
  /** Extra SQL condition (ANDed) and its parameters. */
  where?: string;
  params?: unknown[];
}

export interface ListResult {
  rows: Row[];
  body: Record<string, unknown>;
}

export interface EngineContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly options: EngineOptions;
  /** Prepared statement from the cache. */
  stmt(sql: string): Statement;
  newId(kind?: IdKind): string;
  /** Resource declarations by singular name. */
  readonly resources: ReadonlyMap<string, ResourceDef>;
  resource(name: string): ResourceDef;
  /** http://127.0.0.1:PORT — set once the server listens. */
  origin: string;
  /** Absolute URL of a record: `${origin}${path}/${id}`. */
  href(def: ResourceDef, id: unknown): string;
  /** Drops cached credentials (call after changing a user, key or membership). */
  invalidateAuth(): void;
  /** Record → response object (read-only conversions, `_links.self.href`, expands). */
  serialize(def: ResourceDef, row: Row, auth: AuthInfo | undefined, expand?: readonly string[]): Row;
  /** Parses `?expand=` against the resource's expands (unknown names are ignored). */
  expandsOf(def: ResourceDef, req: FastifyRequest): string[];
  /** Generic list: filters, sort, page, meta, serialised rows under the plural key. */
  list(def: ResourceDef, req: FastifyRequest, extra?: ListExtra): ListResult;
  /** The record `idOrApiId` if the caller may see it (honours `?api_id=true&location_id=`); else 404. */
  findVisible(def: ResourceDef, idOrApiId: string, req: FastifyRequest): Row;
  /** The record by id if the caller may see it, else undefined. */
  getVisible(def: ResourceDef, id: unknown, auth: AuthInfo): Row | undefined;
  /** Unwraps and validates a write body against the declaration (throws 422). */
  validateWrite(def: ResourceDef, body: unknown, mode: 'create' | 'update', req: FastifyRequest, existing?: Row): WriteInput;
  /** INSERT of declared columns (sets id, created_ts, modified_ts, created_user_id when declared). */
  insert(def: ResourceDef, values: Row, auth?: AuthInfo): Row;
  /** UPDATE of declared columns (sets modified_ts, modified_user_id when declared). */
  update(def: ResourceDef, id: unknown, values: Row, auth?: AuthInfo): Row;
  getById(def: ResourceDef, id: unknown): Row | undefined;
  log(line: string): void;
  /**
   * Unix seconds at a location: the engine clock plus the location's sandbox clock
   * offset (0 unless the sandbox clock moved it). Time-based work reads this.
   */
  locationNow(locationId: string): number;
  /** Queues an e-mail or SMS in the persisted outbox (inside the caller's write); returns its id. */
  notify(n: NotificationInput): string;
  /**
   * Set by the notifications module when no mail server is set up: an e-mail is queued with
   * this as its send_error, so the outbox (and the counter reading it) says why it waits the
   * moment it is written — no timer has to come round and mark it.
   */
  emailWaitReason?: string;
  /** Runs every module's due work (for one location, or all): the scheduler's run. */
  runDueWork(locationId?: string): Promise<void>;
  /**
   * Announces a create/update/delete from inside the write that makes it (see
   * record-events.ts); the postbacks module queues the deliveries. Default: nothing.
   */
  recordEvent(e: RecordEvent): void;
}

/** A unit of the engine: migrations, declared resources, hand-written routes, seed data. */
export interface EngineModule {
  name: string;
  migrations?: Migration[];
  resources?: ResourceDef[];
  /** Called once after migrations, before routes (open writers, caches…). */
  init?(ctx: EngineContext): void | Promise<void>;
  /** Hand-written routes (full paths, e.g. `/v2/transactions`); `req.auth` is set. */
  routes?(app: FastifyInstance, ctx: EngineContext): void;
  /** First start only, after the merchant seed. */
  seed?(ctx: EngineContext, seed: SeedInfo): void;
  /** Its hand-written routes in the OpenAPI document (declared resources describe themselves). */
  openapi?(ctx: EngineContext): OpenApiPart;
  /** Tables whose rows `reset()` keeps (reference data inserted by migrations). */
  referenceTables?: string[];
  /** Resolves `Authorization: Bearer` on /v2 to a user id (the OAuth module); undefined = 401. */
  resolveBearer?(token: string, developerId: string): string | undefined;
  /** Extra fields for credentials.json (called after the seed, once the server listens). */
  credentials?(ctx: EngineContext, seed: SeedInfo): Record<string, unknown>;
  /** Work that falls due with time, run by the engine's scheduler and the sandbox clock. */
  dueWork?(ctx: EngineContext): DueWork[];
  /**
   * Reacts to a record event (record-events.ts) inside the write that makes it, after the
   * installed `ctx.recordEvent` (postbacks): `ctx` is the writing connection's view, so what
   * it writes commits or rolls back with the change. Keep it to an indexed lookup when the
   * event is not the module's concern: it runs on every write of every record.
   */
  onRecordEvent?(ctx: EngineContext, e: RecordEvent): void;
  close?(): void | Promise<void>;
}

export type RequestWithAuth = FastifyRequest;

/**
 * Who may do what, declared once per operation. Every route under /v2 and /sandbox names
 * the user types that may call it in its own declaration: a declared resource in its
 * `ResourceDef.allow` (one entry per generic method, beside its fields), a hand-written
 * route in its `config.allow`, and the transaction actions in the action table
 * (payments/transaction-fields.ts), looked up by the body's `action`. One hook, after
 * authentication and before any handler, answers 403 in the envelope; a /v2 or /sandbox
 * route registered without a declaration stops the engine at start-up, so none can be
 * forgotten. The OpenAPI document shows the same declaration on every operation
 * (permission-openapi.ts), and test/gateway/permission-matrix.test.ts walks it.
 *
 * The user types (the seed names only 250; the others are Ringup's reading, as the
 * counter uses them: electron/core/gateway/role-credentials.ts):
 *
 * | user_type_id | role | in short |
 * | 250 | Client Admin | everything, and alone: OAuth clients, the sandbox routes |
 * | 200 | Manager | money back (refund, credit, void, partial reversal), settling, saved cards, schedules, links, postbacks, locations, users below them |
 * | 100 | User (the counter's cashier) | sells, reads the location's money records, sends pay links and invoices |
 * | 50 | Device installer | terminals, scanners, device terms; moves no money and reads none of it |
 *
 * A user whose type is none of these (only in a database made before types were checked)
 * may do nothing until a manager or an admin gives it one: least privilege.
 * Row-level rules stay beside what they guard (users: only users of a type below your
 * own, merchant/user-permissions.ts).
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { AuthInfo } from './auth-info';
import { ApiError, fmt, unauthorized } from './errors';

export const ADMIN_USER_TYPE = 250;
export const MANAGER_USER_TYPE = 200;
export const CASHIER_USER_TYPE = 100;
export const INSTALLER_USER_TYPE = 50;

/** The declared user types, highest first, with the names the messages and the document use. */
export const USER_TYPES = [
  { id: ADMIN_USER_TYPE, name: 'Client Admin' },
  { id: MANAGER_USER_TYPE, name: 'Manager' },
  { id: CASHIER_USER_TYPE, name: 'User (cashier)' },
  { id: INSTALLER_USER_TYPE, name: 'Device installer' },
] as const;
export type UserTypeId = (typeof USER_TYPES)[number]['id'];
export const USER_TYPE_IDS: readonly UserTypeId[] = USER_TYPES.map((t) => t.id);

/** The user types allowed to perform one operation. */
export type Allow = readonly UserTypeId[];

// Named sets, so a declaration reads as a sentence.
/** Every declared type: self-service, reading the location and its devices. */
export const ANY_USER: Allow = [ADMIN_USER_TYPE, MANAGER_USER_TYPE, CASHIER_USER_TYPE, INSTALLER_USER_TYPE];
/** Whoever takes money at the counter; also who reads the location's money records. */
export const SELLERS: Allow = [ADMIN_USER_TYPE, MANAGER_USER_TYPE, CASHIER_USER_TYPE];
/** Whoever sets up terminals and scanners (a cashier could point a terminal at a fake one). */
export const DEVICE_SETUP: Allow = [ADMIN_USER_TYPE, MANAGER_USER_TYPE, INSTALLER_USER_TYPE];
/** Money back, settling, stored payment data, schedules, configuration, other users. */
export const MANAGERS: Allow = [ADMIN_USER_TYPE, MANAGER_USER_TYPE];
export const ADMINS: Allow = [ADMIN_USER_TYPE];

/**
 * An operation whose user types depend on the body's `action` (transactions, router
 * transactions): the declared action table decides. The action is read as the handlers
 * read it (`String(action).toLowerCase()`, so `["refund"]` is a refund). A body whose
 * action the table does not know needs the types that may perform every action (fail
 * closed: for them it is the handler's 422, for the others a 403).
 */
export interface ActionAllow {
  /** The wrapper whose `action` is read (`transaction`, `routertransaction`). */
  wrapper: string;
  /** Who may perform each action (the action table's column). */
  actions: Readonly<Record<string, Allow>>;
  /** The action when none is sent (a POST transaction is a sale). */
  defaultAction?: string;
  /**
   * The action whose role this request really needs, when the record it acts on decides
   * (a tip edit that lowers the amount is a partial reversal), and that rule in one
   * sentence for the document. `decide` reads only and never throws.
   */
  effective?: { description: string; decide(req: FastifyRequest, action: string): string };
}

/** A route's declaration: a fixed set, or by action. */
export type RouteAllow = Allow | ActionAllow;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route (permissions.ts); required under /v2 and /sandbox. */
    allow?: RouteAllow;
  }
}

export const PERMISSION_MSG = {
  FORBIDDEN: 'Your user type ({type}) may not {what}; only {who} may.',
  UNDECLARED_ROUTE: '{method} {url} declares no user types (config.allow, or ResourceDef.allow for {method} of a declared resource).',
  SANDBOX_IN_PRODUCTION: '{method} {url} is a sandbox route and a production engine registers none.',
  SANDBOX_NOT_ADMIN: '{method} {url} is a sandbox route and must be for admins only.',
} as const;

/** `/v2/users/:id` → `/v2/users/{id}` (the document's form, also used in refusals). */
export const openApiPath = (fastifyUrl: string): string => fastifyUrl.replace(/:([A-Za-z_]+)/g, '{$1}');

/** Paths whose routes must declare who may call them (every authenticated route). */
export const GUARDED_PATH = /^\/(v2|sandbox)(\/|$)/;
const SANDBOX_PATH = /^\/sandbox(\/|$)/;

export function isActionAllow(a: RouteAllow): a is ActionAllow {
  return !Array.isArray(a);
}

/** Every type that may perform at least one of the route's operations. */
export function allowedTypes(a: RouteAllow): Allow {
  if (!isActionAllow(a)) return a;
  const all = new Set<number>(Object.values(a.actions).flat());
  return USER_TYPE_IDS.filter((t) => all.has(t));
}

export function userTypeOf(auth: AuthInfo): number {
  return Number(auth.user.user_type_id);
}

export function mayPerform(auth: AuthInfo, allow: Allow): boolean {
  return (allow as readonly number[]).includes(userTypeOf(auth));
}

/** "Client Admin (250) and Manager (200)". */
export function describeTypes(allow: Allow): string {
  const names = USER_TYPES.filter((t) => allow.includes(t.id)).map((t) => `${t.name} (${t.id})`);
  if (names.length === 0) return 'no user type';
  return names.length === 1 ? (names[0] as string) : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] as string}`;
}

export function forbidden(auth: AuthInfo, what: string, allow: Allow): ApiError {
  return new ApiError(403, { general: [fmt(PERMISSION_MSG.FORBIDDEN, { type: userTypeOf(auth), what, who: describeTypes(allow) })] });
}

/**
 * The action a body names, read as the route's handler reads it (a string, case as sent), or
 * the rule's default; anything else names no action of the table (the rule then needs every
 * action's types: fail closed).
 */
function actionOf(rule: ActionAllow, body: unknown): string | undefined {
  const inner = body && typeof body === 'object' ? (body as Record<string, unknown>)[rule.wrapper] : undefined;
  const a = inner && typeof inner === 'object' ? (inner as Record<string, unknown>).action : undefined;
  if (a === undefined || a === null || a === '') return rule.defaultAction;
  return typeof a === 'string' ? a : '';
}

/** The types that may perform every action of the rule. */
function everyActionTypes(rule: ActionAllow): Allow {
  const sets = Object.values(rule.actions);
  return USER_TYPE_IDS.filter((t) => sets.every((s) => s.includes(t)));
}

/** Who may make this request: the route's types, or those of the action its body names (as it really is: `effective`). */
function needOf(req: FastifyRequest, rule: RouteAllow): { allow: Allow; named?: string; action?: string } {
  if (!isActionAllow(rule)) return { allow: rule };
  const named = actionOf(rule, req.body);
  if (named === undefined || !Object.hasOwn(rule.actions, named)) return { allow: everyActionTypes(rule) };
  const action = rule.effective?.decide(req, named) ?? named;
  return { allow: rule.actions[action] ?? everyActionTypes(rule), named, action };
}

/** How a refusal names what was asked (built only when refusing: the check runs on every sale). */
function describeNeed(req: FastifyRequest, rule: RouteAllow, need: { named?: string; action?: string }): string {
  const path = openApiPath(req.routeOptions.url ?? '');
  if (need.named === undefined || need.action === undefined) return isActionAllow(rule) ? `call ${req.method} ${path} with this action` : `call ${req.method} ${path}`;
  return need.action === need.named ? `${need.action} (${req.method} ${path})` : `${need.named} here, which is a ${need.action} (${req.method} ${path})`;
}

/**
 * Installs the one check. `preValidation` runs after authentication (onRequest) and after
 * the body is parsed (an action is read from it), before any handler. Routes outside
 * /v2 and /sandbox (pages, OAuth forms, /health) carry no user and no declaration.
 */
export function installPermissionCheck(app: FastifyInstance, opts: { production: boolean }): void {
  app.addHook('onRoute', (r: RouteOptions) => {
    const url = r.url ?? '';
    if (!GUARDED_PATH.test(url)) return;
    const method = [r.method].flat().join(',');
    const allow = r.config?.allow;
    if (allow === undefined) throw new Error(fmt(PERMISSION_MSG.UNDECLARED_ROUTE, { method, url }));
    if (SANDBOX_PATH.test(url)) {
      if (opts.production) throw new Error(fmt(PERMISSION_MSG.SANDBOX_IN_PRODUCTION, { method, url }));
      const types = allowedTypes(allow);
      if (types.length !== 1 || types[0] !== ADMIN_USER_TYPE) throw new Error(fmt(PERMISSION_MSG.SANDBOX_NOT_ADMIN, { method, url }));
    }
  });
  // Callback style: on the hot path (every sale) a hook costs no promise.
  app.addHook('preValidation', (req, _reply, done) => {
    const rule = req.routeOptions.config?.allow;
    if (rule === undefined) return done();
    // Every guarded route authenticates first (http-plumbing.ts); a request that reached one without a user is refused, never let through.
    if (!req.auth) return done(unauthorized());
    const need = needOf(req, rule);
    done(mayPerform(req.auth, need.allow) ? undefined : forbidden(req.auth, describeNeed(req, rule, need), need.allow));
  });
}

/**
 * Builds the EngineContext handed to every module: binds the generic helpers to the
 * database, the clock and the resource registry.
 */
import type { Clock } from './clock';
import type { EngineContext, EngineOptions } from './context';
import { StatementCache, type Db } from './database';
import { newId } from './ids';
import { list } from './list';
import { findVisible, getById, getVisible, insertRecord, updateRecord } from './records';
import { pathOf, type ResourceDef } from './resource';
import { expandsOf, serialize } from './serialize';
import { validateWrite } from './validate';

export function createContext(db: Db, clock: Clock, options: EngineOptions, resources: readonly ResourceDef[], invalidateAuth: () => void): EngineContext {
  const cache = new StatementCache(db);
  const registry = new Map<string, ResourceDef>();
  for (const r of resources) {
    if (registry.has(r.name)) throw new Error(`Resource "${r.name}" is declared twice.`);
    registry.set(r.name, r);
  }
  const log = options.log ?? (() => {});
  const ctx: EngineContext = {
    db,
    clock,
    options,
    stmt: (sql) => cache.get(sql),
    newId,
    resources: registry,
    resource(name) {
      const r = registry.get(name);
      if (!r) throw new Error(`Unknown resource "${name}".`);
      return r;
    },
    origin: 'http://127.0.0.1',
    href(def, id) {
      return `${ctx.origin}${pathOf(def)}/${encodeURIComponent(String(id))}`;
    },
    invalidateAuth,
    // The sandbox clock (recurring work) replaces this with per-location offsets.
    locationNow: () => clock.now(),
    // A method, not a closure: a module that derives its own context with its own connection
    // (payments) queues the message on that connection, inside its own write.
    notify(this: EngineContext, n) {
      const id = newId();
      this.stmt('INSERT INTO notification_outbox (id, location_id, transaction_id, to_address, subject, body, created_ts, channel, kind, link, resource_type, resource_id, send_error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
        id, n.locationId, n.transactionId ?? null, n.to, n.subject, n.body, n.createdTs ?? this.clock.now(), n.channel, n.kind, n.link ?? null, n.resourceType ?? null, n.resourceId ?? null,
        n.channel === 'email' ? (this.emailWaitReason ?? null) : null,
      );
      return id;
    },
    // Replaced by the engine with its scheduler's run once the modules are known.
    runDueWork: async () => {},
    // Replaced by the postbacks module (a method: it writes on the caller's connection).
    recordEvent: () => {},
    serialize: (def, row, auth, expand) => serialize(ctx, def, row, auth, expand),
    expandsOf,
    list: (def, req, extra) => list(ctx, def, req, extra),
    findVisible: (def, id, req) => findVisible(ctx, def, id, req),
    getVisible: (def, id, auth) => getVisible(ctx, def, id, auth),
    validateWrite: (def, body, mode, req, existing) => validateWrite(ctx, def, body, mode, req, existing),
    insert: (def, values, auth) => insertRecord(ctx, def, values, auth),
    update: (def, id, values, auth) => updateRecord(ctx, def, id, values, auth),
    getById: (def, id) => getById(ctx, def, id),
    log,
  };
  return ctx;
}

/**
 * Generic routes for a declared resource: list, view, create, update, delete, and its
 * declared actions (`POST <path>/:id/<action>`). Writes run in one SQLite transaction
 * together with the resource's hooks; an action runs its own write.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCollector } from './errors';
import type { EngineContext } from './context';
import { checkApiIdUnique } from './records';
import { keepsDigitsOf } from './card-mask';
import { pathOf, type HookArgs, type Method, type ResourceDef, type Row } from './resource';
import type { RecordEventType } from './record-events';

function idParam(req: FastifyRequest): string {
  return (req.params as { id: string }).id;
}

function hookArgs(ctx: EngineContext, req: FastifyRequest): HookArgs {
  return { ctx, auth: req.auth, req, errs: new ErrorCollector() };
}

/** Announces a generic write (inside its transaction) for postbacks; see record-events.ts. */
function announce(ctx: EngineContext, def: ResourceDef, req: FastifyRequest, type: RecordEventType, row: Row): void {
  if (def.scope.kind !== 'column') return;
  const locationId = row[def.scope.column];
  if (typeof locationId !== 'string') return;
  ctx.recordEvent({
    resource: def.name,
    type,
    locationId,
    recordId: String(row.id),
    snapshot: (expands) => ctx.serialize(def, row, req.auth, expands),
  });
}

export function registerCrudRoutes(app: FastifyInstance, ctx: EngineContext, def: ResourceDef): void {
  const base = pathOf(def);
  const m = new Set(def.methods);
  const wrap = (row: Record<string, unknown>, req: FastifyRequest) => ({ [def.name]: ctx.serialize(def, row, req.auth, ctx.expandsOf(def, req)) });
  // Which fields keep long digit runs (ids, api ids, secrets); card numbers anywhere else are masked.
  const keepsDigits = keepsDigitsOf(def);
  // Who may call each method: the declaration's own entry (permissions.ts checks it before the handler).
  const config = (method: Method) => ({ keepsDigits, allow: def.allow[method] });

  if (m.has('list')) app.get(base, { config: config('list') }, async (req) => ctx.list(def, req).body);

  if (m.has('create')) {
    app.post(base, { config: config('create') }, async (req, reply) => {
      const input = ctx.validateWrite(def, req.body, 'create', req);
      const { status, row } = ctx.db.transaction(() => {
        const args = hookArgs(ctx, req);
        const override = def.createOverride?.({ ...args, input });
        if (override) return override;
        checkApiIdUnique(ctx, def, input.values);
        def.beforeInsert?.({ ...args, input });
        args.errs.throwIfAny();
        const created = ctx.insert(def, input.values, req.auth);
        def.afterInsert?.({ ...args, input, row: created });
        announce(ctx, def, req, 'CREATE', created);
        return { status: 201, row: created };
      })();
      return reply.code(status).send(wrap(row, req));
    });
  }

  if (m.has('view')) app.get(`${base}/:id`, { config: config('view') }, async (req) => wrap(ctx.findVisible(def, idParam(req), req), req));

  if (m.has('update')) {
    app.put(`${base}/:id`, { config: config('update') }, async (req) => {
      const existing = ctx.findVisible(def, idParam(req), req);
      const input = ctx.validateWrite(def, req.body, 'update', req, existing);
      const row = ctx.db.transaction(() => {
        const args = hookArgs(ctx, req);
        checkApiIdUnique(ctx, def, input.values, existing);
        def.beforeUpdate?.({ ...args, input, existing });
        args.errs.throwIfAny();
        const updated = ctx.update(def, existing.id, input.values, req.auth);
        def.afterUpdate?.({ ...args, input, row: updated, existing });
        announce(ctx, def, req, 'UPDATE', updated);
        return updated;
      })();
      return wrap(row, req);
    });
  }

  if (m.has('delete')) {
    app.delete(`${base}/:id`, { config: config('delete') }, async (req, reply) => {
      const existing = ctx.findVisible(def, idParam(req), req);
      ctx.db.transaction(() => {
        const args = hookArgs(ctx, req);
        def.beforeDelete?.({ ...args, existing });
        announce(ctx, def, req, 'DELETE', existing);
        ctx.stmt(`DELETE FROM "${def.table}" WHERE id = ?`).run(existing.id);
        def.afterDelete?.({ ...args, existing });
      })();
      return reply.code(204).send();
    });
  }

  for (const [name, action] of Object.entries(def.actions ?? {})) {
    app.post(`${base}/:id/${name}`, { config: { keepsDigits, allow: action.allow } }, async (req) => {
      const row = ctx.findVisible(def, idParam(req), req);
      await action.run({ ctx, req, row });
      return wrap(ctx.findVisible(def, String(row.id), req), req);
    });
  }
}

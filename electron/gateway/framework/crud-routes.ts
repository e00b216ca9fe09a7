/**
 * Generic routes for a declared resource: list, view, create, update, delete, and its
 * declared actions (`POST <path>/:id/<action>`). Writes run in one SQLite transaction
 * together with the resource's hooks; an action runs its own write.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ErrorCollector, fmt, MSG } from './errors';
import type { EngineContext } from './context';
import { checkApiIdUnique } from './records';
import { bodyWritesKeepsDigits, keepsDigitsOf } from './card-mask';
import type { ActionAllow } from './permissions';
import { pathOf, type BodyActionRoute, type HookArgs, type Method, type ResourceDef, type Row } from './resource';
import { planActionFields, readActionFields, readModeFields, wrappedBody, type ActionFieldPlan } from './validate';
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

const JSON_TYPE = 'application/json; charset=utf-8';

/** Who may call a body-dispatched route: each action's declared types, read from the body (permissions.ts). */
export function bodyActionAllow(def: ResourceDef, route: BodyActionRoute): ActionAllow {
  const actions = Object.fromEntries(Object.entries(route.actions).map(([name, a]) => [name, a.allow]));
  return { wrapper: def.name, actions, ...(route.defaultAction ? { defaultAction: route.defaultAction } : {}), ...(route.effective ? { effective: route.effective } : {}) };
}

/**
 * The handler of a body-dispatched route: the wrapper, the action (its default when none is
 * sent), then the action's fields read by the one validator with the plan compiled at
 * start-up; the errors go to the resource's pipeline with the values, which adds its own and
 * throws them together before it acts.
 */
function bodyActionHandler(ctx: EngineContext, def: ResourceDef, route: BodyActionRoute, fields: NonNullable<ResourceDef['bodyActions']>['fields']) {
  const names = Object.keys(route.actions);
  const plans: Readonly<Record<string, ActionFieldPlan>> = planActionFields(fields, names);
  const clearing = new Set(route.clearing ?? []);
  const actionsText = names.join(', ');
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const record = route.find?.({ ctx, req, id: idParam(req) });
    const inner = wrappedBody(req.body, def.name);
    const sent = inner.action;
    const action = sent === undefined || sent === null || sent === '' ? route.defaultAction : sent;
    const plan = typeof action === 'string' && Object.hasOwn(plans, action) ? plans[action] : undefined;
    if (!plan) throw new ApiError(422, { action: [fmt(MSG.ACTION_INVALID, { actions: actionsText })] });
    const errs = new ErrorCollector();
    const values = readActionFields(plan, inner, errs, clearing.has(plan.action));
    const answer = await route.run({ ctx, req, input: { action: plan.action, body: inner, values, errs }, record });
    return reply.code(answer.status).type(JSON_TYPE).send(answer.body);
  };
}

export function registerCrudRoutes(app: FastifyInstance, ctx: EngineContext, def: ResourceDef): void {
  const base = pathOf(def);
  const m = new Set(def.methods);
  const wrap = (row: Record<string, unknown>, req: FastifyRequest) => ({ [def.name]: ctx.serialize(def, row, req.auth, ctx.expandsOf(def, req)) });
  // Which fields keep long digit runs (ids, api ids, secrets); card numbers anywhere else are masked.
  const keepsDigits = keepsDigitsOf(def);
  // Who may call each method: the declaration's own entry (permissions.ts checks it before the handler).
  const config = (method: Method) => ({ keepsDigits, allow: def.allow[method] });

  // Records kept in the module's own form answer list and view themselves (RecordSource).
  const source = def.records;
  if (m.has('list')) {
    if (source) app.get(base, { config: config('list') }, async (req, reply) => reply.type(JSON_TYPE).send(source.list({ ctx, req })));
    else app.get(base, { config: config('list') }, async (req) => ctx.list(def, req).body);
  }
  const bodyActions = def.bodyActions;
  if (bodyActions?.create) app.post(base, { config: { keepsDigits, allow: bodyActionAllow(def, bodyActions.create) } }, bodyActionHandler(ctx, def, bodyActions.create, bodyActions.fields));
  if (bodyActions?.update) app.put(`${base}/:id`, { config: { keepsDigits, allow: bodyActionAllow(def, bodyActions.update) } }, bodyActionHandler(ctx, def, bodyActions.update, bodyActions.fields));

  // Stateful writes (BodyWrites): the one validator reads the body by mode and variant, the resource's hooks write.
  const writes = def.bodyWrites;
  const writeDigits = writes ? bodyWritesKeepsDigits(def, writes) : keepsDigits;
  const variantOf = (value: unknown): string | undefined => (writes?.variants && typeof value === 'string' && writes.variants.values.includes(value) ? value : undefined);
  const writesCreate = writes?.create;
  if (m.has('create') && writes && writesCreate) {
    app.post(base, { config: { keepsDigits: writeDigits, allow: def.allow.create } }, async (req, reply) => {
      const body = wrappedBody(req.body, def.name);
      const errs = new ErrorCollector();
      const values = readModeFields(writes, 'create', variantOf(writes.variants ? body[writes.variants.field] : undefined), body, errs);
      const row = await writesCreate({ ctx, req, input: { body, values, errs } });
      return reply.code(201).send({ [def.name]: row });
    });
  } else if (m.has('create')) {
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

  if (m.has('view')) {
    if (source) app.get(`${base}/:id`, { config: config('view') }, async (req, reply) => reply.type(JSON_TYPE).send(source.view({ ctx, req, id: idParam(req) })));
    else app.get(`${base}/:id`, { config: config('view') }, async (req) => wrap(ctx.findVisible(def, idParam(req), req), req));
  }

  const writesUpdate = writes?.update;
  if (m.has('update') && writes && writesUpdate) {
    app.put(`${base}/:id`, { config: { keepsDigits: writeDigits, allow: def.allow.update } }, async (req) => {
      const existing = ctx.findVisible(def, idParam(req), req);
      const body = wrappedBody(req.body, def.name);
      const errs = new ErrorCollector();
      const values = readModeFields(writes, 'update', variantOf(writes.variants ? existing[writes.variants.field] : undefined), body, errs);
      return { [def.name]: await writesUpdate({ ctx, req, input: { body, values, errs }, existing }) };
    });
  } else if (m.has('update')) {
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
    // A read action answers what it returns under its own wrapper (an account vault's BIN information).
    const answers = action.answers;
    if (action.method === 'get' && answers) {
      app.get(`${base}/:id/${name}`, { config: { keepsDigits, allow: action.allow } }, async (req) => {
        const row = ctx.findVisible(def, idParam(req), req);
        return { [answers.wrapper]: await action.run({ ctx, req, row }) };
      });
      continue;
    }
    app.post(`${base}/:id/${name}`, { config: { keepsDigits, allow: action.allow } }, async (req) => {
      const row = ctx.findVisible(def, idParam(req), req);
      await action.run({ ctx, req, row });
      return wrap(ctx.findVisible(def, String(row.id), req), req);
    });
  }
}

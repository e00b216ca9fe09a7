/**
 * The extension points the payments module (and later ones) build on: a module brings
 * migrations, a declared resource with generic routes, hand-written routes using the
 * context helpers, seed data and reference tables kept by reset().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultModules } from '../../electron/gateway/engine-modules';
import type { EngineModule } from '../../electron/gateway/framework/context';
import { ApiError, MSG, fmt } from '../../electron/gateway/framework/errors';
import { ANY_USER, MANAGERS } from '../../electron/gateway/framework/permissions';
import type { ResourceDef } from '../../electron/gateway/framework/resource';
import { TestEngine, errorsOf } from './helpers/engine-fixture';

const widgetResource: ResourceDef = {
  name: 'widget',
  plural: 'widgets',
  table: 'widgets',
  scope: { kind: 'column', column: 'location_id' },
  apiId: { field: 'widget_api_id', scopeColumn: 'location_id' },
  defaultSort: '-created_ts',
  methods: ['list', 'view', 'create', 'update', 'delete'],
  allow: { list: ANY_USER, view: ANY_USER, create: MANAGERS, update: MANAGERS, delete: MANAGERS },
  fields: {
    id: { type: 'string', readOnly: true },
    location_id: { type: 'string', min: 24, max: 36, required: true, update: false, ref: 'location' },
    code: { type: 'string', min: 1, max: 8, required: true },
    widget_api_id: { type: 'string', min: 1, max: 36, format: 'no-spaces' },
    amount_cents: { type: 'integer', minValue: 0, default: 0 },
    kind_id: { type: 'integer' },
    created_ts: { type: 'integer', readOnly: true },
    modified_ts: { type: 'integer', readOnly: true },
  },
  expands: { kind: (ctx, row) => ctx.stmt('SELECT id, title FROM widget_kinds WHERE id = ?').get(row.kind_id) ?? null },
  beforeDelete({ existing }) {
    if (existing.code === 'LOCKED') throw new ApiError(409, { general: ['Locked widgets stay.'] });
  },
};

const widgetsModule: EngineModule = {
  name: 'widgets',
  referenceTables: ['widget_kinds'],
  migrations: [
    {
      version: 900,
      module: 'widgets',
      name: 'widgets',
      up(db) {
        // `code` is UNIQUE without a declared check: the error handler's constraint safety net answers 409.
        db.exec(`CREATE TABLE widgets (id TEXT PRIMARY KEY, location_id TEXT NOT NULL, code TEXT NOT NULL UNIQUE, widget_api_id TEXT,
                   amount_cents INTEGER NOT NULL, kind_id INTEGER, created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
                 CREATE TABLE widget_kinds (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
                 INSERT INTO widget_kinds VALUES (1, 'Sprocket');`);
      },
    },
  ],
  resources: [widgetResource],
  seed(ctx, seed) {
    ctx.insert(widgetResource, { location_id: seed.locationId, code: 'SEEDED', amount_cents: 100, kind_id: 1 });
  },
  routes(app, ctx) {
    app.post('/v2/widgets/:id/double', { config: { allow: MANAGERS } }, async (req) => {
      const w = ctx.findVisible(widgetResource, (req.params as { id: string }).id, req);
      const row = ctx.update(widgetResource, w.id, { amount_cents: Number(w.amount_cents) * 2 }, req.auth);
      return { widget: ctx.serialize(widgetResource, row, req.auth, ctx.expandsOf(widgetResource, req)) };
    });
    app.get('/v2/widgets/total', { config: { allow: ANY_USER } }, async (req) => {
      const { rows } = ctx.list(widgetResource, req, { where: 'amount_cents > ?', params: [0] });
      return { total: rows.reduce((s, r) => s + Number(r.amount_cents), 0), at: ctx.clock.now() };
    });
  },
};

let t: TestEngine;
beforeAll(async () => {
  t = await TestEngine.start({ modules: [...defaultModules(), widgetsModule] });
});
afterAll(async () => {
  await t.close();
});

describe('engine modules', () => {
  it('get generic routes, validation, api ids and expands from a declaration', async () => {
    const seeded = await t.get('/widgets?code=SEEDED&expand=kind');
    expect(seeded.body.widgets[0].kind).toEqual({ id: 1, title: 'Sprocket' });
    const a = await t.post('/widgets', { widget: { location_id: t.locationId, code: 'W1', widget_api_id: 'w-1', amount_cents: '250' } });
    expect(a.status).toBe(201);
    expect(a.body.widget.amount_cents).toBe(250);
    expect((await t.get(`/widgets/w-1?api_id=true&location_id=${t.locationId}`)).body.widget.id).toBe(a.body.widget.id);
    const bad = await t.post('/widgets', { widget: { location_id: t.locationId, code: 'TOO-LONG-CODE', amount_cents: -1 } });
    expect(errorsOf(bad, 'code')).toEqual([fmt(MSG.TOO_LONG, { attribute: 'Code', max: 8 })]);
    expect(errorsOf(bad, 'amount_cents')).toEqual([fmt(MSG.TOO_SMALL, { attribute: 'Amount Cents', min: 0 })]);
    const dup = await t.post('/widgets', { widget: { location_id: t.locationId, code: 'W1' } });
    expect(dup.status).toBe(409);
    expect(errorsOf(dup)).toEqual([MSG.CONFLICT]);
  });

  it('hand-written routes use the context helpers; the static route wins over /{id}', async () => {
    const a = await t.post('/widgets', { widget: { location_id: t.locationId, code: 'W2', amount_cents: 5 } });
    const doubled = await t.post(`/widgets/${a.body.widget.id}/double`);
    expect(doubled.body.widget.amount_cents).toBe(10);
    expect((await t.post('/widgets/nope/double')).status).toBe(404);
    t.clock.set(2_000_000_000);
    const total = await t.get('/widgets/total?page_size=100');
    expect(total.status).toBe(200);
    expect(total.body.at).toBe(2_000_000_000);
    expect(total.body.total).toBeGreaterThanOrEqual(360);
    t.clock.release();
  });

  it('hooks can refuse a delete; reset() keeps reference tables and re-runs module seeds', async () => {
    const locked = await t.post('/widgets', { widget: { location_id: t.locationId, code: 'LOCKED' } });
    const refused = await t.del(`/widgets/${locked.body.widget.id}`);
    expect(refused.status).toBe(409);
    expect(errorsOf(refused)).toEqual(['Locked widgets stay.']);
    t.engine.reset();
    const after = await t.get('/widgets?expand=kind');
    expect(after.body.widgets.map((w: { code: string }) => w.code)).toEqual(['SEEDED']);
    expect(after.body.widgets[0].kind.title).toBe('Sprocket');
  });
});

/**
 * Body-dispatched actions are the framework's, usable by any resource (issue 19, point 9):
 * a toy module declares a tip jar whose POST and PUT bodies pick their `action`, and gets,
 * without a route of its own, the wrapper and action checks, the one permission check per
 * action, the one validator's reading (money in cents handed to its handler, a field of
 * another action refused, a required one named), the record found before the body is read
 * on PUT, and the document's request schemas with `x-actions`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultModules } from '../../electron/gateway/engine-modules';
import type { EngineModule } from '../../electron/gateway/framework/context';
import { MSG, fmt } from '../../electron/gateway/framework/errors';
import { ANY_USER, MANAGERS, SELLERS } from '../../electron/gateway/framework/permissions';
import type { BodyActionInput, ResourceDef } from '../../electron/gateway/framework/resource';
import { TestEngine, errorsOf, type Creds } from './helpers/engine-fixture';

/** What the handlers were handed, newest last. */
const seen: BodyActionInput[] = [];

const jarResource: ResourceDef = {
  name: 'tipjar',
  plural: 'tipjars',
  table: 'tip_jars',
  scope: { kind: 'column', column: 'location_id' },
  defaultSort: '-created_ts',
  methods: ['list', 'view'],
  allow: { list: ANY_USER, view: ANY_USER },
  fields: {
    id: { type: 'string', readOnly: true },
    location_id: { type: 'string', readOnly: true },
    total_cents: { type: 'integer', readOnly: true },
    created_ts: { type: 'integer', readOnly: true },
  },
  bodyActions: {
    fields: [
      { name: 'location_id', type: 'string', max: 36, actions: ['open'], requiredFor: ['open'], keepsDigits: 'identifier' },
      { name: 'amount', type: 'money', actions: ['open', 'tip', 'empty'], requiredFor: ['tip'] },
      { name: 'note', type: 'string', max: 8, actions: ['tip'] },
    ],
    create: {
      actions: { open: { allow: SELLERS }, tip: { allow: SELLERS } },
      defaultAction: 'tip',
      operationId: 'tipjarsCreate',
      summary: 'Open a jar or tip',
      answer: 'Done.',
      schemaName: 'TipJarCreate',
      async run({ ctx, req, input }) {
        seen.push(input);
        input.errs.throwIfAny();
        const id = ctx.newId();
        const location = (input.values.location_id as string | undefined) ?? req.auth.locationIds[0];
        ctx.db.prepare('INSERT INTO tip_jars (id, location_id, total_cents, created_ts) VALUES (?, ?, ?, ?)').run(id, location, input.values.amount ?? 0, ctx.clock.now());
        return { status: 201, body: JSON.stringify({ tipjar: { id, total_cents: input.values.amount ?? 0 } }) };
      },
    },
    update: {
      actions: { empty: { allow: MANAGERS } },
      operationId: 'tipjarsAction',
      summary: 'Empty a jar',
      answer: 'Emptied.',
      schemaName: 'TipJarAction',
      find: ({ ctx, req, id }) => ctx.findVisible(jarResource, id, req),
      async run({ input, record }) {
        seen.push(input);
        input.errs.throwIfAny();
        return { status: 200, body: JSON.stringify({ tipjar: { id: (record as { id: string }).id, total_cents: 0 } }) };
      },
    },
  },
};

const jarModule: EngineModule = {
  name: 'tipjars',
  migrations: [
    {
      version: 901,
      module: 'tipjars',
      name: 'tip jars',
      up(db) {
        db.exec('CREATE TABLE tip_jars (id TEXT PRIMARY KEY, location_id TEXT NOT NULL, total_cents INTEGER NOT NULL, created_ts INTEGER NOT NULL)');
      },
    },
  ],
  resources: [jarResource],
};

let t: TestEngine;
let installer: Creds;
let cashier: Creds;
beforeAll(async () => {
  t = await TestEngine.start({ modules: [...defaultModules(), jarModule] });
  const user = async (type: number, name: string): Promise<Creds> => {
    const key = `key-${name}-${'k'.repeat(20)}`;
    const r = await t.post('/users', { user: { username: name, email: `${name}@example.com`, last_name: name, user_type_id: type, primary_location_id: t.locationId, password: 'Secret123', user_api_key: key } });
    expect(r.status, r.text).toBe(201);
    return { developerId: t.creds.developerId, userId: r.body.user.id as string, apiKey: key };
  };
  installer = await user(50, 'jar-installer');
  cashier = await user(100, 'jar-cashier');
});
afterAll(async () => {
  await t.close();
});

describe('a resource with body-dispatched actions', () => {
  it('reads the body for its action with the one validator and hands the values over (money in cents)', async () => {
    const r = await t.post('/tipjars', { tipjar: { amount: '2.50', note: 'thanks' } });
    expect(r.status, r.text).toBe(201);
    expect(seen.at(-1)).toMatchObject({ action: 'tip', values: { amount: 250, note: 'thanks' } });
    expect((await t.get(`/tipjars/${r.body.tipjar.id}`)).body.tipjar.total_cents).toBe(250);
  });

  it('refuses the wrapper, the action and the fields as the declaration says, naming each field', async () => {
    expect(errorsOf(await t.post('/tipjars', { jar: {} }))).toEqual([fmt(MSG.WRAPPER_MISSING, { wrapper: 'tipjar' })]);
    expect(errorsOf(await t.post('/tipjars', { tipjar: { action: 'steal' } }), 'action')).toEqual([fmt(MSG.ACTION_INVALID, { actions: 'open, tip' })]);
    const r = await t.post('/tipjars', { tipjar: { action: 'open', note: 'hello', amount: ' 1.00' } });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({
      note: [fmt(MSG.FIELD_NOT_FOR_ACTION, { attribute: 'Note', action: 'open' })],
      amount: [fmt(MSG.MONEY_INVALID, { attribute: 'Amount' })],
      location_id: [fmt(MSG.BLANK, { attribute: 'Location Id' })],
    });
  });

  it('checks each action against its own user types before the handler runs', async () => {
    const before = seen.length;
    expect((await t.post('/tipjars', { tipjar: { amount: '1.00' } }, { creds: installer })).status).toBe(403);
    const jar = (await t.post('/tipjars', { tipjar: { amount: '1.00' } }, { creds: cashier })).body.tipjar.id as string;
    expect((await t.put(`/tipjars/${jar}`, { tipjar: { action: 'empty' } }, { creds: cashier })).status).toBe(403);
    expect(seen.length).toBe(before + 1);
    expect((await t.put(`/tipjars/${jar}`, { tipjar: { action: 'empty' } })).body.tipjar.total_cents).toBe(0);
  });

  it('finds the record before it reads the body on PUT (404 first)', async () => {
    expect((await t.put('/tipjars/nothing-here', { nonsense: true })).status).toBe(404);
  });

  it('documents each route with one request schema whose fields say which actions take them, and one per action where `action` must be sent', async () => {
    const doc = (await (await fetch(new URL('/openapi.json', t.engine.baseUrl))).json()) as {
      components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>>; required?: string[]; oneOf?: unknown[]; discriminator?: unknown }> };
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const create = doc.components.schemas.TipJarCreate!;
    expect(create.properties.action).toMatchObject({ enum: ['open', 'tip', '', null], default: 'tip' });
    expect(create.properties.note!['x-actions']).toEqual(['tip']);
    expect(create.properties.amount!['x-actions']).toEqual(['open', 'tip']);
    expect(doc.components.schemas.TipJarAction!.required).toEqual(['action']);
    // PUT names its action: discriminated, one schema per action (its fields by reference, its required ones).
    expect(doc.components.schemas.TipJarAction!.discriminator).toEqual({ propertyName: 'action', mapping: { empty: '#/components/schemas/TipJarActionEmpty' } });
    expect(doc.components.schemas.TipJarActionEmpty).toMatchObject({ required: ['action'], properties: { action: { const: 'empty' }, amount: { $ref: '#/components/schemas/TipJarAction/properties/amount' } } });
    // POST may leave `action` out (the default runs), which no discriminator can read: one schema.
    expect(doc.components.schemas.TipJarCreate!.oneOf).toBeUndefined();
    expect(doc.paths['/v2/tipjars']!.post!.operationId).toBe('tipjarsCreate');
    expect(doc.paths['/v2/tipjars/{id}']!.put!.operationId).toBe('tipjarsAction');
  });
});

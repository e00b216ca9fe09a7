/**
 * Every recurring route is in the engine's OpenAPI document, and its real answers
 * (successes and errors) validate against the documented schemas (ajv, draft 2020-12),
 * the same check test/gateway/openapi.test.ts makes for the other resources.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecurringEngine, type RecurringHarness } from './recurring-harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document walked by key
type Doc = any;
let h: RecurringHarness;
let doc: Doc;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ajv instance
let ajv: any;

beforeAll(async () => {
  h = await startRecurringEngine('2030-01-15');
  doc = await (await fetch(h.engine.baseUrl.replace(/\/v2$/, '') + '/openapi.json')).json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components });
});
afterAll(async () => h?.close());

function problemsOf(method: string, path: string, status: number, body: unknown): string[] {
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) return [`${method} ${path} is not documented`];
  let resp = op.responses[String(status)];
  if (!resp) return [`${method} ${path} does not document ${status}`];
  if (resp.$ref) resp = doc.components.responses[resp.$ref.split('/').pop()];
  const schema = resp.content?.['application/json']?.schema;
  if (!schema) return body === null ? [] : [`${method} ${path} ${status}: body but no schema`];
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
  return validate(body) ? [] : validate.errors.map((e: { instancePath: string; message: string }) => `${method} ${path} ${status}: ${e.instancePath} ${e.message}`);
}

describe('recurrings in the OpenAPI document', () => {
  it('documents every recurring route and the sandbox clock', () => {
    for (const p of ['/v2/recurrings', '/v2/recurrings/{id}', '/v2/recurrings/{id}/placeOnHold', '/v2/recurrings/{id}/activate', '/v2/recurrings/{id}/skipPayment', '/v2/recurrings/{id}/deferPayment', '/sandbox/clock', '/sandbox/clock/advance']) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(Object.keys(doc.paths['/v2/recurrings/{id}']).sort()).toEqual(['delete', 'get', 'put']);
  });

  it('real answers validate against the documented schemas', async () => {
    const problems: string[] = [];
    const run = async (method: string, docPath: string, url: string, body: unknown, expected: number) => {
      const r = await h.call(method, url, body);
      problems.push(...problemsOf(method, docPath, r.status, r.body));
      if (r.status !== expected) problems.push(`${method} ${url}: ${r.status} (expected ${expected})`);
      return r;
    };
    const created = await run('POST', '/v2/recurrings', '/v2/recurrings', { recurring: { location_id: h.location, account_vault_id: h.cardVault, product_transaction_id: h.ccPt, transaction_amount: '10.00', interval: 1, interval_type: 'm', start_date: '2030-01-15', installment_total_count: 4 } }, 201);
    const id = created.body.recurring.id as string;
    await run('POST', '/v2/recurrings', '/v2/recurrings', { recurring: { location_id: h.location } }, 422);
    await run('GET', '/v2/recurrings', '/v2/recurrings?expand=account_vault,contact', undefined, 200);
    await run('GET', '/v2/recurrings/{id}', `/v2/recurrings/${id}?expand=transactions,location,product_transaction,created_user,tags,signature`, undefined, 200);
    await run('GET', '/v2/recurrings/{id}', '/v2/recurrings/no-such-id', undefined, 404);
    await run('PUT', '/v2/recurrings/{id}', `/v2/recurrings/${id}`, { recurring: { description: 'Plan' } }, 200);
    await run('PUT', '/v2/recurrings/{id}', `/v2/recurrings/${id}`, { recurring: { end_date: '2031-01-01' } }, 422);
    await run('POST', '/v2/recurrings/{id}/skipPayment', `/v2/recurrings/${id}/skipPayment?skip_count=1`, undefined, 200);
    await run('POST', '/v2/recurrings/{id}/skipPayment', `/v2/recurrings/${id}/skipPayment?skip_count=0`, undefined, 422);
    await run('POST', '/v2/recurrings/{id}/deferPayment', `/v2/recurrings/${id}/deferPayment?defer_count=1`, undefined, 200);
    await run('POST', '/v2/recurrings/{id}/placeOnHold', `/v2/recurrings/${id}/placeOnHold`, undefined, 200);
    await run('POST', '/v2/recurrings/{id}/placeOnHold', `/v2/recurrings/${id}/placeOnHold`, undefined, 422);
    await run('POST', '/v2/recurrings/{id}/activate', `/v2/recurrings/${id}/activate`, undefined, 200);
    await run('POST', '/v2/recurrings/{id}/activate', '/v2/recurrings/no-such-id/activate', undefined, 404);
    await run('DELETE', '/v2/accountvaults/{id}', `/v2/accountvaults/${h.cardVault}`, undefined, 422);
    await run('POST', '/sandbox/clock/advance', '/sandbox/clock/advance', { clock: { location_id: h.location, seconds: 86_400 * 40 } }, 200);
    await run('DELETE', '/v2/recurrings/{id}', `/v2/recurrings/${id}`, undefined, 204);
    await run('DELETE', '/v2/recurrings/{id}', `/v2/recurrings/${id}`, undefined, 404);
    expect(problems).toEqual([]);
  });
});

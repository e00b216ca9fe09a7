/**
 * Issue 19, point 3: no request bypasses authentication or ends in a 5xx, whatever its
 * request line; every refusal, protocol-level ones included, is the error envelope; null
 * where a field cannot be empty is a 422 naming it; integers are integers in every answer.
 * Requests here go over raw TCP where fetch cannot write them (absolute-form targets,
 * missing or doubled Host, odd Expect values, CONNECT).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../electron/gateway/framework/errors';
import { isEnvelopeText } from './helpers/answer-checks';
import { TestEngine, errorsOf } from './helpers/engine-fixture';

let t: TestEngine;
let port: number;
beforeAll(async () => {
  t = await TestEngine.start({ schedulerIntervalMs: 0 });
  port = Number(new URL(t.engine.baseUrl).port);
});
afterAll(async () => {
  await t.close();
});

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

/** Writes `text` as is and reads the one answer (the request asks the server to close). */
function raw(text: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('data', (d) => chunks.push(d));
    s.on('error', reject);
    s.on('close', () => {
      const all = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = all.split('\r\n\r\n');
      let body = rest.join('\r\n\r\n');
      if (/transfer-encoding: chunked/i.test(head)) {
        // De-chunk (answers here are small).
        let out = '';
        let i = 0;
        for (;;) {
          const nl = body.indexOf('\r\n', i);
          const size = parseInt(body.slice(i, nl), 16);
          if (!size) break;
          out += body.slice(nl + 2, nl + 2 + size);
          i = nl + 2 + size + 2;
        }
        body = out;
      }
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body });
    });
    s.write(text);
  });
}

const credHeaders = () => {
  const c = t.creds;
  return `developer-id: ${c.developerId}\r\nuser-id: ${c.userId}\r\nuser-api-key: ${c.apiKey}\r\n`;
};

/** One path of every family that answers a GET (lists, records, the sandbox clock, the signed-in user). */
const familyPaths = () => [
  '/v2/users/me', '/v2/users', '/v2/locations', '/v2/locationinfos', '/v2/contacts', '/v2/tags', '/v2/terminals', '/v2/scanners', '/v2/scannermodels',
  '/v2/deviceterms', '/v2/postbackconfigs', '/v2/postbackdeliveries', '/v2/notifications', '/v2/transactions', '/v2/accountvaults', '/v2/transactionbatches',
  '/v2/recurrings', '/v2/paylinks', '/v2/quickinvoices', '/v2/oauthclients', `/v2/locations/${t.locationId}`, `/sandbox/clock?location_id=${t.locationId}`,
];

describe('absolute-form request lines', () => {
  it('authenticate like origin-form ones: 401 without credentials, the same answer with them, never a 5xx', async () => {
    for (const p of familyPaths()) {
      const bare = await raw(`GET http://127.0.0.1:${port}${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(bare.status, `no credentials ${p}`).toBe(401);
      expect(isEnvelopeText(bare.body), p).toBe(true);
      const signed = await raw(`GET http://127.0.0.1:${port}${p} HTTP/1.1\r\nHost: 127.0.0.1\r\n${credHeaders()}Connection: close\r\n\r\n`);
      expect(signed.status, `with credentials ${p}: ${signed.body.slice(0, 120)}`).toBe(200);
    }
  });

  it('take the authority of the request line as the Host (RFC 9112 §3.2.2): a foreign one is refused on loopback', async () => {
    const a = await raw(`GET http://evil.example/v2/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\n${credHeaders()}Connection: close\r\n\r\n`);
    expect(a.status).toBe(403);
    expect(JSON.parse(a.body)).toEqual({ errors: { general: [MSG.HOST_NOT_ALLOWED] } });
  });

  it('percent-encoded path letters and an asterisk-form target do not get past authentication', async () => {
    for (const p of ['/%76%32/contacts', '/%76%32/users/me', `/%73andbox/clock?location_id=${t.locationId}`, '/v2/%63ontacts']) {
      const a = await raw(`GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(a.status, p).toBe(401);
      expect(isEnvelopeText(a.body), p).toBe(true);
    }
    const star = await raw(`OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(star.status).toBeGreaterThanOrEqual(400);
    expect(star.status).toBeLessThan(500);
    expect(isEnvelopeText(star.body)).toBe(true);
  });
});

describe('protocol-level refusals are the envelope', () => {
  it('Expect other than 100-continue: 417 in the envelope; 100-continue still works', async () => {
    const a = await raw(`GET /v2/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: nonsense\r\n${credHeaders()}Connection: close\r\n\r\n`);
    expect(a.status).toBe(417);
    expect(JSON.parse(a.body)).toEqual({ errors: { general: [MSG.EXPECTATION_FAILED] } });
    const ok = await raw(`GET /v2/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n${credHeaders()}Connection: close\r\n\r\n`);
    expect(ok.headers).toMatch(/^HTTP\/1\.1 100 Continue/);
    expect(ok.body).toContain('HTTP/1.1 200 OK');
  });

  it('an HTTP/1.1 request without Host, or with two: 400 in the envelope', async () => {
    const none = await raw(`GET /v2/users/me HTTP/1.1\r\n${credHeaders()}Connection: close\r\n\r\n`);
    expect(none.status).toBe(400);
    expect(JSON.parse(none.body)).toEqual({ errors: { general: [MSG.HOST_MISSING] } });
    const two = await raw(`GET /v2/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n${credHeaders()}Connection: close\r\n\r\n`);
    expect(two.status).toBe(400);
    expect(JSON.parse(two.body)).toEqual({ errors: { general: [MSG.HOST_DUPLICATE] } });
  });

  it('CONNECT and a compressed body: the envelope with the right status', async () => {
    const tunnel = await raw(`CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(tunnel.status).toBe(405);
    expect(isEnvelopeText(tunnel.body)).toBe(true);
    const gz = await raw(`POST /v2/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Encoding: gzip\r\nContent-Type: application/json\r\nContent-Length: 2\r\n${credHeaders()}Connection: close\r\n\r\n{}`);
    expect(gz.status).toBe(415);
    expect(JSON.parse(gz.body)).toEqual({ errors: { general: [MSG.UNSUPPORTED_ENCODING] } });
  });
});

describe('null where a field cannot be empty', () => {
  it('is a 422 naming the field (recurring account_vault_id and end_date, invoice status_id), never a 500 or a 409', async () => {
    const vault = await t.post('/accountvaults', { accountvault: { location_id: t.locationId, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230' } });
    const rec = await t.post('/recurrings', {
      recurring: { location_id: t.locationId, product_transaction_id: t.engine.credentials.cc_product_transaction_id, account_vault_id: vault.body.accountvault.id, transaction_amount: '10.00', interval: 1, interval_type: 'm', start_date: '2030-01-15' },
    });
    expect(rec.status).toBe(201);
    const id = rec.body.recurring.id as string;
    for (const field of ['account_vault_id', 'end_date']) {
      for (const empty of [null, '']) {
        const a = await t.put(`/recurrings/${id}`, { recurring: { [field]: empty } });
        expect(a.status, `${field}=${JSON.stringify(empty)} ${a.text}`).toBe(422);
        expect(errorsOf(a, field), field).toEqual([MSG.BLANK.replace('{attribute}', field === 'end_date' ? 'End Date' : 'Account Vault Id')]);
      }
    }
    const inv = await t.post('/quickinvoices', { quickinvoice: { location_id: t.locationId, title: 'Null', due_date: '2030-06-10', item_list: { Work: 10 } } });
    const a = await t.put(`/quickinvoices/${inv.body.quickinvoice.id}`, { quickinvoice: { status_id: null } });
    expect(a.status, a.text).toBe(422);
    expect(errorsOf(a, 'status_id')).toEqual(['Status Id cannot be blank.']);
  });
});

describe('integers are integers', () => {
  it('a settled transaction answers modified_ts (and status_id) as JSON integers, in the record and in lists', async () => {
    const sale = await t.post('/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '3.00' } });
    const batch = sale.body.transaction.transaction_batch_id as string;
    expect((await t.post(`/transactionbatches/${batch}/settle`)).status).toBe(200);
    const one = await t.get(`/transactions/${sale.body.transaction.id}`);
    expect(one.body.transaction.transaction_settlement_status).toBe('settled');
    expect(one.text).toMatch(/"modified_ts":\d+[,}]/);
    expect(one.text).not.toMatch(/"(modified_ts|status_id|created_ts)":-?\d+\.\d/);
    const list = await t.get('/transactions?page_size=50');
    expect(list.text).not.toMatch(/"(modified_ts|status_id|created_ts)":-?\d+\.\d/);
  });

  it('an ACH debit moved along its statuses by the clock answers status_id and modified_ts as JSON integers', async () => {
    const debit = await t.post('/transactions', {
      transaction: { action: 'debit', account_number: '123456789', routing: '072000326', account_type: 'checking', account_holder_name: 'Pat Doe', transaction_amount: '2.00' },
    });
    expect(debit.body.transaction.status_id).toBe(131);
    t.clock.advance(10 * 86_400);
    const one = await t.get(`/transactions/${debit.body.transaction.id}`);
    expect(one.body.transaction.status_id).toBe(134);
    expect(one.text).toMatch(/"status_id":134[,}]/);
    expect(one.text).not.toMatch(/"(modified_ts|status_id)":-?\d+\.\d/);
  });
});

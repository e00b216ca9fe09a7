/**
 * Hostile input that once broke other clients or the process (issue 9, point 6):
 * deep JSON stored by one client, bad URL encodings, prototype keys taken for
 * allow-listed ones, half-sent requests, card numbers typed into free text and echoed
 * from query strings.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, fmt } from '../../electron/gateway/framework/errors';
import { MAX_JSON_DEPTH } from '../../electron/gateway/framework/json-depth';
import { PAY_MSG } from '../../electron/gateway/payments/payment-messages';
import { TestEngine, errorsOf, type ApiAnswer } from './helpers/engine-fixture';

const VISA = '4111111111111111';
let t: TestEngine;
beforeAll(async () => {
  t = await TestEngine.start({ requestTimeoutMs: 1_500 });
});
afterAll(async () => {
  await t.close();
});

const deep = (n: number): unknown => {
  let v: unknown = 'bottom';
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};

function isEnvelope(a: ApiAnswer): boolean {
  const errs = (a.body as { errors?: unknown } | undefined)?.errors;
  return typeof errs === 'object' && errs !== null && Object.values(errs).every((v) => Array.isArray(v) && v.every((m) => typeof m === 'string'));
}

describe('nesting depth', () => {
  it('refuses custom_data nested 1,000 deep with a 422 before storing; every list and the batch still work', async () => {
    const before = (await t.get('/transactions')).body.transactions.length as number;
    const r = await t.post('/transactions', { transaction: { action: 'sale', account_number: VISA, exp_date: '1230', transaction_amount: '1.00', custom_data: deep(1000) } });
    expect(r.status).toBe(422);
    expect(errorsOf(r)).toEqual([MSG.TOO_DEEP.replace('{max}', String(MAX_JSON_DEPTH))]);
    const list = await t.get('/transactions');
    expect(list.status).toBe(200);
    expect(list.body.transactions.length).toBe(before);
    // At the limit the same body is accepted and reads back.
    const ok = await t.post('/transactions', { transaction: { action: 'sale', account_number: VISA, exp_date: '1230', transaction_amount: '1.00', custom_data: deep(MAX_JSON_DEPTH - 3) } });
    expect(ok.status).toBe(201);
    expect((await t.get('/transactions')).status).toBe(200);
    const batches = await t.get('/transactionbatches?is_open=1');
    const batchId = batches.body.transactionbatches[0].id as string;
    expect((await t.post(`/transactionbatches/${batchId}/settle`, undefined)).status).toBeLessThan(300);
  });

  it('refuses deep nesting in any resource, arrays too', async () => {
    let arr: unknown = 1;
    for (let i = 0; i < 200; i++) arr = [arr];
    const r = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'Deep', x: arr } });
    expect(r.status).toBe(422);
    expect(errorsOf(r)).toEqual([MSG.TOO_DEEP.replace('{max}', String(MAX_JSON_DEPTH))]);
  });
});

describe('every error is in the envelope', () => {
  it('bad percent-encodings, overlong ids and odd paths', async () => {
    for (const p of ['/contacts/%ff', '/contacts/%', '/contacts/%zz', `/contacts/${'x'.repeat(20_000)}`, '/contacts?%ff=1', '/contacts?sort=%ff', '/users/%c0%af']) {
      const a = await t.get(p);
      expect(a.status, p).toBeLessThan(500);
      if (a.status >= 400) expect(isEnvelope(a), `${p} → ${a.status} ${a.text.slice(0, 100)}`).toBe(true);
    }
    for (const p of ['/contacts/%ff', '/contacts/%', `/contacts/${'x'.repeat(20_000)}`]) {
      expect((await t.get(p)).status, p).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('allow-listed keys are own keys', () => {
  it('constructor / toString are not accepted keys, sorts or filters', async () => {
    for (const k of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const prefs = await t.put(`/users/${t.creds.userId}`, { user: { ui_prefs: { [k]: 'x' } } });
      expect(prefs.status, `ui_prefs ${k}`).toBe(422);
      for (const base of ['/contacts', '/transactions', '/accountvaults', '/users']) {
        const s = await t.get(`${base}?sort=${k}`);
        expect(s.status, `${base} sort ${k}`).toBe(422);
        const f = await t.get(`${base}?${k}=1`);
        expect(f.status, `${base} filter ${k}`).toBe(200);
      }
    }
    const tt = await t.post('/terminals', {
      terminal: { location_id: t.locationId, terminal_application_id: null, mac_address: null, title: 'T', terminal_timeouts: { constructor: 5 } },
    });
    expect(tt.status).toBeLessThan(500);
  });
});

describe('slow and half-sent requests', () => {
  it('closes a connection that sends half a request, and keeps serving others meanwhile', async () => {
    const port = Number(new URL(t.engine.baseUrl).port);
    const sock = connect(port, '127.0.0.1');
    const closed = new Promise<string>((resolve) => {
      let got = '';
      sock.on('data', (d) => (got += d.toString()));
      sock.on('close', () => resolve(got));
      sock.on('error', () => {});
    });
    await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
    const c = t.creds;
    sock.write(
      `POST /v2/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\ndeveloper-id: ${c.developerId}\r\nuser-id: ${c.userId}\r\nuser-api-key: ${c.apiKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"contact":',
    );
    // Others are served while the half request hangs.
    expect((await t.get('/users/me')).status).toBe(200);
    const answer = await closed;
    // A 408 in the envelope (or a plain close) — never a hang.
    if (answer) expect(answer).toMatch(/^HTTP\/1\.1 408[^]*"errors"/);
    expect((await t.get('/users/me')).status).toBe(200);
  });

  it('closes a connection that never finishes its headers', async () => {
    const port = Number(new URL(t.engine.baseUrl).port);
    const sock = connect(port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => {
      sock.on('close', () => resolve());
      sock.on('error', () => {});
      sock.on('data', () => {});
    });
    await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
    sock.write('GET /v2/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    await closed;
    expect((await t.get('/users/me')).status).toBe(200);
  });
});

describe('card numbers in free text', () => {
  it('masks Luhn-valid numbers in description, custom fields and notes before storing', async () => {
    const r = await t.post('/transactions', {
      transaction: {
        action: 'sale', account_number: VISA, exp_date: '1230', transaction_amount: '1.00',
        description: `card ${VISA} paid`, transaction_c1: '5555-5555-5555-4444', custom_data: { note: `4111 1111 1111 1111`, list: ['378282246310005'] },
      },
    });
    expect(r.status).toBe(201);
    const stored = JSON.stringify(t.engine.db.prepare('SELECT * FROM transactions WHERE id = ?').get(r.body.transaction.id));
    expect(stored).not.toMatch(/4111[ -]?1111[ -]?1111[ -]?1111/);
    expect(stored).not.toMatch(/5555-5555-5555-4444/);
    expect(stored).not.toContain('378282246310005');
    expect(r.body.transaction.description).toContain('1111');
    const c = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'Doe', company_name: `x ${VISA}` } });
    expect(c.status).toBe(201);
    expect(JSON.stringify(t.engine.db.prepare('SELECT * FROM contacts WHERE id = ?').get(c.body.contact.id))).not.toContain(VISA);
    // Not a card: a non-Luhn 16-digit reference and a short number stay.
    const n = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'Ref', company_name: 'order 1234567890123456 / 42' } });
    expect(n.body.contact.company_name).toBe('order 1234567890123456 / 42');
  });

  it('masks card numbers in every field not declared to hold account data or an id, and anywhere inside custom data', async () => {
    const [mc, amex, disc, visa2, visa3] = ['5454545454545454', '371449635398431', '6011000995500000', '4005562231212149', '4012888888881881'];
    // A field whose pattern a masked number cannot meet says why instead of storing it.
    const po = await t.post('/transactions', { transaction: { action: 'sale', account_number: VISA, exp_date: '1230', transaction_amount: '1.00', po_number: visa3 } });
    expect(po.status).toBe(422);
    expect(po.body.errors.po_number).toEqual([PAY_MSG.FIELD_CARD_NUMBER.replace('{attribute}', 'Po Number')]);
    expect(po.text).not.toContain(visa3);
    const r = await t.post('/transactions', {
      transaction: {
        action: 'sale', account_number: VISA, exp_date: '1230', transaction_amount: '1.00', description: `paid with ${visa3}`,
        clerk_number: mc, customer_id: amex, custom_data: { card_number: disc, id: visa2, nested: { account_number: mc } },
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.transaction).toMatchObject({ status_id: 101, last_four: '1111' }); // the declared account_number still charges
    const stored = JSON.stringify(t.engine.db.prepare('SELECT * FROM transactions WHERE id = ?').get(r.body.transaction.id));
    for (const n of [VISA, mc, amex, disc, visa2, visa3]) {
      expect(stored, n).not.toContain(n);
      expect(r.text, n).not.toContain(n);
    }
    expect(r.body.transaction.custom_data).toEqual({ card_number: '************0000', id: '************2149', nested: { account_number: '************5454' } });
    // A contact's account_number is the merchant's own reference, not account data: masked too.
    const c = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'Doe', account_number: VISA } });
    expect(c.status).toBe(201);
    expect(JSON.stringify(t.engine.db.prepare('SELECT * FROM contacts WHERE id = ?').get(c.body.contact.id))).not.toContain(VISA);
    expect(c.text).not.toContain(VISA);
    // Declared identifiers keep their digits: a numeric api id is found again as sent...
    const numeric = '6011000995500001'; // 16 digits that fail Luhn: no card
    const byApi = await t.post('/transactions', { transaction: { action: 'sale', account_number: VISA, exp_date: '1230', transaction_amount: '1.00', transaction_api_id: numeric } });
    expect(byApi.body.transaction.transaction_api_id).toBe(numeric);
    const again = await t.get(`/transactions/${numeric}?api_id=1&location_id=${t.locationId}`);
    expect(again.status).toBe(200);
    expect(again.body.transaction.id).toBe(byApi.body.transaction.id);
    // ...so one that is a card number is refused, never masked into another id or stored (card-numbers-in-fields.test.ts walks every field).
    const card = await t.post('/transactions', { transaction: { action: 'sale', account_number: VISA, exp_date: '1230', transaction_amount: '1.00', transaction_api_id: disc } });
    expect(card.status).toBe(422);
    expect(card.body.errors.transaction_api_id).toEqual([fmt(MSG.CARD_NUMBER_IN_IDENTIFIER, { attribute: 'Transaction Api Id' })]);
    expect(card.text).not.toContain(disc);
  });

  it('never echoes a card number from the query string in an error (masked once, before any handler)', async () => {
    for (const base of ['/contacts', '/transactions', '/accountvaults']) {
      const a = await t.get(`${base}?sort=${VISA}`);
      expect(a.status, base).toBe(422);
      expect(a.text, base).not.toContain(VISA);
      expect(a.text, base).toContain('1111');
    }
  });

  it('never echoes a card number from the query string in pagination links', async () => {
    for (const base of ['/contacts', '/transactions']) {
      const a = await t.get(`${base}?page_size=1&description=${VISA}&last_name=${VISA}&junk=${VISA}`);
      expect(a.status).toBe(200);
      expect(a.text).not.toContain(VISA);
    }
  });
});

/**
 * Pay links and quick invoices over real HTTP against a real engine (port 0, SQLite in a
 * temporary folder): every endpoint and rule, the multipart create with a stored file and
 * an oversize file refused, the payment pages posted as a browser form would, and the
 * reminders run through the sandbox clock. Answers are also checked against the engine's
 * own OpenAPI document.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BILLING_MSG } from '../../../electron/gateway/billing-links/billing-messages';
import { locationToday } from '../../../electron/gateway/recurring/location-today';
import { errorsOf, TestEngine, type ApiAnswer } from '../helpers/engine-fixture';
import { submitPaymentPage } from '../../helpers/payment-page';

let e: TestEngine;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the OpenAPI document walked by key
let doc: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- compiled per response
let ajv: any;
const problems: string[] = [];

beforeAll(async () => {
  e = await TestEngine.start({ schedulerIntervalMs: 0 });
  doc = await (await fetch(e.url('/openapi.json').replace('/v2', ''))).json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components });
});
afterAll(async () => {
  await e?.close();
});

const origin = () => new URL(e.engine.baseUrl).origin;
const api = (p: string) => `${origin()}${p}`;

/** Checks an answer against the documented response of `method docPath` for its status. */
function conform(method: string, docPath: string, a: ApiAnswer): ApiAnswer {
  const op = doc.paths[docPath]?.[method.toLowerCase()];
  let resp = op?.responses[String(a.status)];
  if (!resp) {
    problems.push(`${method} ${docPath} does not document ${a.status}`);
    return a;
  }
  if (resp.$ref) resp = doc.components.responses[resp.$ref.split('/').pop()];
  const schema = resp.content?.['application/json']?.schema;
  if (schema) {
    const v = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
    if (!v(a.body)) problems.push(`${method} ${docPath} ${a.status}: ${JSON.stringify(v.errors).slice(0, 300)}`);
  }
  return a;
}

const outbox = (resourceId: string): { channel: string; to_address: string; kind: string; link: string; attachments: string | null; subject: string }[] =>
  e.engine.ctx.stmt('SELECT * FROM notification_outbox WHERE resource_id = ? ORDER BY rowid').all(resourceId) as never;


const CARD = { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', cvv: '999', billing_zip: '32606', billing_street: '5800 NW 39th AVE' };

describe('pay links', () => {
  test('create: delivery_method rules, notifications, payment_url expand with the seed link shape', async () => {
    const loc = e.locationId;
    const noPhone = conform('POST', '/v2/paylinks', await e.post('/paylinks', { paylink: { location_id: loc, delivery_method: 2, amount_due: '12.00' } }));
    expect(noPhone.status).toBe(422);
    expect(errorsOf(noPhone, 'cell_phone')).toEqual([BILLING_MSG.CELL_PHONE_FOR_SMS]);
    const noMethod = await e.post('/paylinks', { paylink: { location_id: loc } });
    expect(errorsOf(noMethod, 'delivery_method')).toEqual(['Delivery Method cannot be blank.']);
    const badPt = await e.post('/paylinks', { paylink: { location_id: loc, delivery_method: 0, cc_product_transaction_id: e.engine.credentials.ach_product_transaction_id } });
    expect(errorsOf(badPt, 'cc_product_transaction_id')[0]).toMatch(/not a card product/);

    const a = conform('POST', '/v2/paylinks', await e.post('/paylinks?expand=payment_url', { paylink: { location_id: loc, delivery_method: 3, amount_due: '12.5', email: 'pat@example.com', cell_phone: '5555550123', description: 'Phone order', paylink_api_id: 'pl-1' } }));
    expect(a.status).toBe(201);
    const pl = a.body.paylink;
    expect(pl).toMatchObject({ amount_due: '12.50', status_id: 0, delivery_method: 3, cc_product_transaction_id: e.engine.credentials.cc_product_transaction_id });
    expect(pl.payment_url).toBe(`${origin()}/paylink?paylink_id=${pl.id}`);
    const sent = outbox(pl.id);
    expect(sent.map((m) => m.channel).sort()).toEqual(['email', 'sms']);
    expect(sent.every((m) => m.link === pl.payment_url && m.kind === 'paylink')).toBe(true);

    const emailOnly = await e.post('/paylinks', { paylink: { location_id: loc, delivery_method: 1, email: 'x@example.com', cell_phone: '5555550123' } });
    expect(outbox(emailOnly.body.paylink.id).map((m) => m.channel)).toEqual(['email']);

    conform('GET', '/v2/paylinks/{id}', await e.get(`/paylinks/pl-1?api_id=true&location_id=${loc}&expand=payment_url,contact,location`));
    const list = conform('GET', '/v2/paylinks', await e.get('/paylinks?status_id=0&expand=payment_url'));
    expect(list.body.paylinks.length).toBeGreaterThanOrEqual(2);
    const upd = conform('PUT', '/v2/paylinks/{id}', await e.put(`/paylinks/${pl.id}`, { paylink: { delivery_method: 2, cell_phone: '' } }));
    expect(errorsOf(upd, 'cell_phone')).toEqual([BILLING_MSG.CELL_PHONE_FOR_SMS]);
    expect((await e.put(`/paylinks/${pl.id}`, { paylink: { description: 'Phone order #2' } })).body.paylink.description).toBe('Phone order #2');
  });

  test('resend 204 / 404; delete 204 / 404', async () => {
    const pl = (await e.post('/paylinks', { paylink: { location_id: e.locationId, delivery_method: 1, email: 'r@example.com' } })).body.paylink;
    const r = conform('POST', '/v2/paylinks/{id}/resend', await e.post(`/paylinks/${pl.id}/resend`));
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(outbox(pl.id)).toHaveLength(2);
    expect(conform('POST', '/v2/paylinks/{id}/resend', await e.post('/paylinks/nope/resend')).status).toBe(404);
    const none = (await e.post('/paylinks', { paylink: { location_id: e.locationId, delivery_method: 0 } })).body.paylink;
    expect(errorsOf(await e.post(`/paylinks/${none.id}/resend`))[0]).toMatch(/no recipient/);
    expect(conform('DELETE', '/v2/paylinks/{id}', await e.del(`/paylinks/${pl.id}`)).status).toBe(204);
    expect((await e.del(`/paylinks/${pl.id}`)).status).toBe(404);
    expect((await e.get(`/paylinks/${pl.id}`)).status).toBe(404);
  });

  test('the payment page: bad input in words, a decline, then a payment that sets status_id 1; paid links refuse updates and payments', async () => {
    const pl = (await e.post('/paylinks?expand=payment_url', { paylink: { location_id: e.locationId, delivery_method: 0, amount_due: '20.00', description: 'Deposit' } })).body.paylink;
    const page = await fetch(pl.payment_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const bad = await submitPaymentPage(pl.payment_url, { ...CARD, account_number: '4111111111111112' });
    expect(bad.status).toBe(422);
    expect(bad.text).toMatch(/The payment could not be made: /);
    expect(bad.text).not.toContain('4111111111111112');
    const forged = await fetch(api('/paylink'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ paylink_id: pl.id, form_id: 'a'.repeat(32), csrf_token: 'b'.repeat(64), ...CARD }).toString() });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain(BILLING_MSG.PAGE_FORM);

    // A decline (the sandbox's 5.00) is told in words on the page, and the link stays unpaid.
    const deny = (await e.post('/paylinks?expand=payment_url', { paylink: { location_id: e.locationId, delivery_method: 0, amount_due: '5.00' } })).body.paylink;
    const declined = await submitPaymentPage(deny.payment_url, CARD);
    expect(declined.status).toBe(200);
    expect(declined.text).toContain('The payment was declined (');
    expect(declined.text).toContain('Nothing was charged.');
    expect(declined.text).not.toContain('Payment approved');
    expect((await e.get(`/paylinks/${deny.id}`)).body.paylink.status_id).not.toBe(1);
    expect((await submitPaymentPage(deny.payment_url, CARD)).text).not.toContain(BILLING_MSG.PAGE_PAID);

    const paid = await submitPaymentPage(pl.payment_url, CARD);
    expect(paid.status).toBe(201);
    expect(paid.text).toContain('Payment approved');
    const after = (await e.get(`/paylinks/${pl.id}`)).body.paylink;
    expect(after.status_id).toBe(1);
    const txns = (await e.get(`/transactions?location_id=${e.locationId}&page_size=100`)).body.transactions as Record<string, unknown>[];
    const mine = txns.filter((t) => t.paylink_id === pl.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status_id: 101, transaction_amount: '20.00', trx_source_id: 3 });

    const again = await submitPaymentPage(pl.payment_url, CARD);
    expect(again.text).toContain(BILLING_MSG.PAGE_PAID);
    const refused = conform('PUT', '/v2/paylinks/{id}', await e.put(`/paylinks/${pl.id}`, { paylink: { description: 'x' } }));
    expect(errorsOf(refused)).toEqual([BILLING_MSG.PAYLINK_CLOSED]);
  });

  test('a pay link without amount takes the amount entered; a bank account pays through ACH', async () => {
    const ach = e.engine.credentials.ach_product_transaction_id;
    const pl = (await e.post('/paylinks?expand=payment_url', { paylink: { location_id: e.locationId, delivery_method: 0, ach_product_transaction_id: ach } })).body.paylink;
    const noAmount = await submitPaymentPage(pl.payment_url, { payment_method: 'ach', amount: 'ten' });
    expect(noAmount.text).toContain(BILLING_MSG.PAGE_AMOUNT);
    const ok = await submitPaymentPage(pl.payment_url, { payment_method: 'ach', amount: '7.25', ach_account_holder_name: 'Pat Doe', routing: '072000326', ach_account_number: '123456789' });
    expect(ok.status).toBe(201);
    expect((await e.get(`/paylinks/${pl.id}`)).body.paylink.status_id).toBe(1);
  });
});

describe('no double charge', () => {
  /** Two forms rendered before either is posted (two tabs), posted at the same time. */
  async function twoForms(url: string): Promise<URLSearchParams[]> {
    const forms: URLSearchParams[] = [];
    for (let i = 0; i < 2; i++) {
      const html = await (await fetch(url)).text();
      const f = new URLSearchParams();
      for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) f.set(m[1] as string, m[2] as string);
      for (const [k, v] of Object.entries(CARD)) f.set(k, v);
      forms.push(f);
    }
    return forms;
  }
  const post = (path: string, f: URLSearchParams) => fetch(api(path), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: f.toString() });
  const approvedFor = (field: string, id: string) =>
    ((e.engine.ctx.stmt(`SELECT doc FROM transactions WHERE status_id = 101`).all() as { doc: string }[]).map((r) => JSON.parse(r.doc) as Record<string, unknown>)).filter((d) => d[field] === id);

  test('a pay link paid from two tabs at once is charged once; the same form posted twice is one payment', async () => {
    const pl = (await e.post('/paylinks?expand=payment_url', { paylink: { location_id: e.locationId, delivery_method: 0, amount_due: '9.00' } })).body.paylink;
    const [a, b] = await twoForms(pl.payment_url);
    const answers = await Promise.all([post('/paylink', a!), post('/paylink', a!), post('/paylink', b!)]);
    // One approval; the others are told it is already paid (or, for the same form while
    // the first is in flight, shown the same approval).
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(approvedFor('paylink_id', pl.id)).toHaveLength(1);
    expect((await e.get(`/paylinks/${pl.id}`)).body.paylink.status_id).toBe(1);
  });

  test('an invoice paid in full from two tabs at once is charged once (no overpayment)', async () => {
    const inv = (await e.post('/quickinvoices', { quickinvoice: { location_id: e.locationId, title: 'Race', due_date: '2030-01-01', item_list: { A: 15 }, email: 'race@example.com' } })).body.quickinvoice;
    const url = `${origin()}/quickinvoice/?id=${inv.id}`;
    const [a, b] = await twoForms(url);
    const answers = await Promise.all([post('/quickinvoice', a!), post('/quickinvoice', b!)]);
    const texts = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status).sort(), texts.join('\n')).toEqual([201, 409]);
    expect(approvedFor('quick_invoice_id', inv.id)).toHaveLength(1);
    expect((await e.get(`/quickinvoices/${inv.id}`)).body.quickinvoice).toMatchObject({ remaining_balance: '0.00', payment_status_id: 2 });
    expect(outbox(inv.id).filter((m) => m.kind === 'thank_you')).toHaveLength(1);
  });

  test('an expired link and an unknown link say so on the page', async () => {
    const pl = (await e.post('/paylinks?expand=payment_url', { paylink: { location_id: e.locationId, delivery_method: 0, expire_date: '2020-01-01' } })).body.paylink;
    const page = await fetch(pl.payment_url);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain(BILLING_MSG.PAGE_EXPIRED);
    const unknown = await fetch(api('/quickinvoice/?id=nope'));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain(BILLING_MSG.PAGE_NOT_FOUND);
  });
});

describe('quick invoices', () => {
  const base = () => ({ location_id: e.locationId, title: 'Bike repair', due_date: '2030-06-10', item_list: { Labour: 40, Parts: '12.50' }, email: 'pat@example.com' });

  test('JSON create: amount_due is the sum of item_list; e-mail with the seed link shape; bad items in words', async () => {
    const bad = conform('POST', '/v2/quickinvoices', await e.post('/quickinvoices', { quickinvoice: { ...base(), item_list: { Labour: 'forty' } } }));
    expect(bad.status).toBe(422);
    expect(errorsOf(bad, 'item_list')[0]).toContain('"Labour"');
    expect(errorsOf(await e.post('/quickinvoices', { quickinvoice: { location_id: e.locationId } }), 'title')).toEqual(['Title cannot be blank.']);
    const a = conform('POST', '/v2/quickinvoices', await e.post('/quickinvoices', { quickinvoice: { ...base(), tags: ['Repairs'] } }));
    expect(a.status, a.text).toBe(201);
    expect(a.body.quickinvoice).toMatchObject({ amount_due: '52.50', remaining_balance: '52.50', status_id: 1, payment_status_id: 1, allow_partial_pay: 0, notification_days_before_due_date: 3 });
    const id = a.body.quickinvoice.id;
    const mail = outbox(id);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.link).toBe(`${origin()}/quickinvoice/?id=${id}`);
    const view = conform('GET', '/v2/quickinvoices/{id}', await e.get(`/quickinvoices/${id}?expand=tags,files,transactions`));
    expect(view.body.quickinvoice.tags).toEqual([{ title: 'Repairs' }]);
    conform('GET', '/v2/quickinvoices', await e.get('/quickinvoices?payment_status_id=1'));
    const upd = conform('PUT', '/v2/quickinvoices/{id}', await e.put(`/quickinvoices/${id}`, { quickinvoice: { item_list: { Labour: 40, Parts: 12.5, Bell: 3 } } }));
    expect(upd.body.quickinvoice).toMatchObject({ amount_due: '55.50', remaining_balance: '55.50' });
  });

  test('multipart create stores the file and attaches it to the e-mail; an oversize file is refused in the envelope', async () => {
    const fd = new FormData();
    fd.set('quickinvoice[title]', 'With a file');
    fd.set('quickinvoice[due_date]', '2030-06-10');
    fd.set('quickinvoice[location_id]', e.locationId);
    fd.set('quickinvoice[attach_files_to_email]', '1');
    fd.set('quickinvoice[item_list][Ladder hire]', '1');
    fd.set('quickinvoice[item_list][Delivery]', '1.25');
    fd.set('quickinvoice[send_email]', '1');
    fd.set('quickinvoice[email]', 'office@harbor-books.example');
    fd.set('quickinvoice[tags][0]', 'Rentals');
    fd.set('quickinvoice[files][0]', new Blob([Buffer.from('%PDF-1.4 hello')], { type: 'application/pdf' }), 'quote.pdf');
    const c = e.creds;
    const headers = { 'developer-id': c.developerId, 'user-id': c.userId, 'user-api-key': c.apiKey };
    const res = await fetch(e.url('/quickinvoices?expand=files,tags'), { method: 'POST', headers, body: fd });
    const body = await res.json();
    conform('POST', '/v2/quickinvoices', { status: res.status, body, text: '', headers: res.headers });
    expect(res.status).toBe(201);
    expect(body.quickinvoice).toMatchObject({ amount_due: '2.25', attach_files_to_email: 1, email: 'office@harbor-books.example' });
    expect(body.quickinvoice.files).toHaveLength(1);
    expect(body.quickinvoice.files[0]).toMatchObject({ file_name: 'quote.pdf', size: 14 });
    const mail = outbox(body.quickinvoice.id);
    expect(JSON.parse(mail[0]!.attachments as string)).toEqual([{ file_id: body.quickinvoice.files[0].id, file_name: 'quote.pdf', content_type: 'application/pdf' }]);
    const file = await fetch(api(`/quickinvoice/file?id=${body.quickinvoice.id}&file_id=${body.quickinvoice.files[0].id}`));
    expect(await file.text()).toBe('%PDF-1.4 hello');

    const big = new FormData();
    big.set('quickinvoice[title]', 'Too big');
    big.set('quickinvoice[due_date]', '2030-06-10');
    big.set('quickinvoice[location_id]', e.locationId);
    big.set('quickinvoice[item_list][a]', '1');
    big.set('quickinvoice[files][0]', new Blob([Buffer.alloc(5 * 1024 * 1024 + 1)]), 'huge.bin');
    const before = e.engine.ctx.stmt('SELECT COUNT(*) AS n FROM quick_invoices').get() as { n: number };
    const r2 = await fetch(e.url('/quickinvoices'), { method: 'POST', headers, body: big });
    const b2 = await r2.json();
    conform('POST', '/v2/quickinvoices', { status: r2.status, body: b2, text: '', headers: r2.headers });
    expect(r2.status).toBe(422);
    expect(b2.errors.files).toEqual(['Each file may be at most 5 MB.']);
    expect(e.engine.ctx.stmt('SELECT COUNT(*) AS n FROM quick_invoices').get()).toEqual(before);
    const many = new FormData();
    many.set('quickinvoice[title]', 'Too many');
    many.set('quickinvoice[due_date]', '2030-06-10');
    many.set('quickinvoice[location_id]', e.locationId);
    many.set('quickinvoice[item_list][a]', '1');
    for (let i = 0; i < 5; i++) many.set(`quickinvoice[files][${i}]`, new Blob([Buffer.from(`file ${i}`)]), `f${i}.txt`);
    const r3 = await fetch(e.url('/quickinvoices'), { method: 'POST', headers, body: many });
    expect(r3.status).toBe(422);
    expect((await r3.json()).errors.files).toEqual(['A quick invoice may have at most 4 files.']);
    expect(e.engine.ctx.stmt('SELECT COUNT(*) AS n FROM quick_invoices').get()).toEqual(before);
    // A broken multipart body is a 422 in the envelope, never a 5xx.
    for (const [type, raw] of [['multipart/form-data; boundary=XYZ', '--XYZ\r\nContent-Disposition: form-data; name="quickinvoice[title]"\r\n\r\nNo end'], ['multipart/form-data', 'no boundary at all']]) {
      const bad = await fetch(e.url('/quickinvoices'), { method: 'POST', headers: { ...headers, 'content-type': type as string }, body: raw });
      expect(bad.status, `${type}`).toBeLessThan(500);
      expect(bad.status).toBeGreaterThanOrEqual(400);
      expect((await bad.json()).errors).toBeDefined();
    }
    // Multipart stays refused elsewhere on /v2.
    const other = await fetch(e.url('/contacts'), { method: 'POST', headers, body: fd });
    expect(other.status).toBe(415);
  });

  test('partial payments, overpayment rules, closing, reopen conditions, thank-you', async () => {
    const full = (await e.post('/quickinvoices', { quickinvoice: { ...base(), item_list: { Service: 30 } } })).body.quickinvoice;
    const url = `${origin()}/quickinvoice/?id=${full.id}`;
    // A decline (an invoice of the sandbox's 5.00) is told in words, and the invoice stays unpaid.
    const denied = (await e.post('/quickinvoices', { quickinvoice: { ...base(), item_list: { Service: 5 } } })).body.quickinvoice;
    const declinedPage = await submitPaymentPage(`${origin()}/quickinvoice/?id=${denied.id}`, CARD);
    expect(declinedPage.text).toContain('The payment was declined (');
    expect((await e.get(`/quickinvoices/${denied.id}`)).body.quickinvoice).toMatchObject({ remaining_balance: '5.00', status_id: 1 });
    // Full payment required: the page charges the fixed amount, whatever amount is posted.
    const fullPaid = await submitPaymentPage(url, { ...CARD, account_number: '4111111111111111', amount: '5.00' });
    expect(fullPaid.status).toBe(201);
    const inv = (await e.get(`/quickinvoices/${full.id}`)).body.quickinvoice;
    expect(inv).toMatchObject({ remaining_balance: '0.00', payment_status_id: 2, status_id: 0 });
    expect(outbox(full.id).map((m) => m.kind)).toEqual(['quick_invoice', 'thank_you']);
    const txns = (await e.get(`/transactions?location_id=${e.locationId}&page_size=200`)).body.transactions as Record<string, unknown>[];
    expect(txns.filter((t) => t.quick_invoice_id === full.id)[0]).toMatchObject({ trx_source_id: 8, transaction_amount: '30.00' });
    expect(errorsOf(await e.put(`/quickinvoices/${full.id}`, { quickinvoice: { title: 'x' } }))).toEqual([BILLING_MSG.INVOICE_CLOSED]);
    expect(errorsOf(conform('POST', '/v2/quickinvoices/{id}/reopen', await e.post(`/quickinvoices/${full.id}/reopen`)))).toEqual([BILLING_MSG.REOPEN_PAID]);
    expect((await submitPaymentPage(url, CARD)).text).toContain(BILLING_MSG.PAGE_PAID);

    const part = (await e.post('/quickinvoices', { quickinvoice: { ...base(), item_list: { Service: 30 }, allow_partial_pay: 1 } })).body.quickinvoice;
    const purl = `${origin()}/quickinvoice/?id=${part.id}`;
    const over = await submitPaymentPage(purl, { ...CARD, amount: '31.00' });
    expect(over.text).toContain('more than the remaining balance of $30.00');
    expect((await submitPaymentPage(purl, { ...CARD, amount: '10.00' })).status).toBe(201);
    let p = (await e.get(`/quickinvoices/${part.id}`)).body.quickinvoice;
    expect(p).toMatchObject({ remaining_balance: '20.00', payment_status_id: 3, status_id: 1 });
    // Closed by the merchant while partly paid: refused updates, then reopened.
    expect((await e.put(`/quickinvoices/${part.id}`, { quickinvoice: { status_id: 0 } })).body.quickinvoice.status_id).toBe(0);
    expect((await submitPaymentPage(purl, { ...CARD, amount: '1.00' })).text).toContain(BILLING_MSG.PAGE_CLOSED);
    p = conform('POST', '/v2/quickinvoices/{id}/reopen', await e.post(`/quickinvoices/${part.id}/reopen`)).body.quickinvoice;
    expect(p.status_id).toBe(1);
    expect(errorsOf(await e.post(`/quickinvoices/${part.id}/reopen`))).toEqual([BILLING_MSG.REOPEN_OPEN]);

    // Overpayment allowed: pays more than due, and a paid invoice may be reopened.
    const op = (await e.post('/quickinvoices', { quickinvoice: { ...base(), item_list: { Service: 10 }, allow_partial_pay: 1, allow_overpayment: 1 } })).body.quickinvoice;
    expect((await submitPaymentPage(`${origin()}/quickinvoice/?id=${op.id}`, { ...CARD, amount: '12.00' })).status).toBe(201);
    expect((await e.get(`/quickinvoices/${op.id}`)).body.quickinvoice).toMatchObject({ remaining_balance: '0.00', payment_status_id: 2, status_id: 0 });
    expect((await e.post(`/quickinvoices/${op.id}/reopen`)).body.quickinvoice.status_id).toBe(1);

    // Expired invoices cannot be reopened.
    const ex = (await e.post('/quickinvoices', { quickinvoice: { ...base(), expire_date: '2020-01-01' } })).body.quickinvoice;
    await e.put(`/quickinvoices/${ex.id}`, { quickinvoice: { status_id: 0 } });
    expect(errorsOf(await e.post(`/quickinvoices/${ex.id}/reopen`))).toEqual([BILLING_MSG.REOPEN_EXPIRED]);
    expect((await e.post('/quickinvoices/nope/reopen')).status).toBe(404);
  });

  test('addTransaction / removeTransaction recalculate the balance; only approved money counts; no overpay', async () => {
    const inv = (await e.post('/quickinvoices', { quickinvoice: { ...base(), item_list: { A: 25 } } })).body.quickinvoice;
    const sale = async (amount: string) => (await e.post('/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: amount } })).body.transaction;
    const t10 = await sale('10.00');
    const declined = await sale('5.00');
    const t30 = await sale('30.00');
    const add = (id: string) => e.put(`/quickinvoices/${inv.id}/addTransaction`, { quickinvoice: { transaction_id: id } });
    const a = conform('PUT', '/v2/quickinvoices/{id}/addTransaction', await add(t10.id));
    expect(a.body.quickinvoice).toMatchObject({ remaining_balance: '15.00', payment_status_id: 3 });
    expect(errorsOf(await add(t10.id), 'transaction_id')).toEqual([BILLING_MSG.TXN_ALREADY]);
    expect(errorsOf(await add(declined.id), 'transaction_id')).toEqual([BILLING_MSG.TXN_NOT_APPROVED]);
    expect(errorsOf(await add(t30.id), 'transaction_id')[0]).toMatch(/more than the remaining balance/);
    expect(errorsOf(conform('PUT', '/v2/quickinvoices/{id}/addTransaction', await add('nope')), 'transaction_id')).toEqual([BILLING_MSG.TXN_UNKNOWN]);
    expect(errorsOf(await e.put(`/quickinvoices/${inv.id}/addTransaction`, { quickinvoice: {} }), 'transaction_id')).toEqual([BILLING_MSG.TXN_REQUIRED]);
    const r = conform('PUT', '/v2/quickinvoices/{id}/removeTransaction', await e.put(`/quickinvoices/${inv.id}/removeTransaction`, { quickinvoice: { transaction_id: t10.id } }));
    expect(r.body.quickinvoice).toMatchObject({ remaining_balance: '25.00', payment_status_id: 1 });
    expect(errorsOf(await e.put(`/quickinvoices/${inv.id}/removeTransaction`, { quickinvoice: { transaction_id: t10.id } }), 'transaction_id')).toEqual([BILLING_MSG.TXN_NOT_ON]);
    expect((await e.put('/quickinvoices/nope/removeTransaction', { quickinvoice: { transaction_id: t10.id } })).status).toBe(404);
  });

  test('resend with the sms / email switches; delete 204 / 404', async () => {
    const inv = (await e.post('/quickinvoices', { quickinvoice: { ...base(), cell_phone: '5555550123', send_email: 0 } })).body.quickinvoice;
    expect(outbox(inv.id)).toHaveLength(0);
    const both = conform('POST', '/v2/quickinvoices/{id}/resend', await e.post(`/quickinvoices/${inv.id}/resend`));
    expect(both.status).toBe(204);
    expect(outbox(inv.id).map((m) => m.channel)).toEqual(['email', 'sms']);
    await e.post(`/quickinvoices/${inv.id}/resend?sms=0`);
    await e.post(`/quickinvoices/${inv.id}/resend?email=0`);
    expect(outbox(inv.id).map((m) => m.channel)).toEqual(['email', 'sms', 'email', 'sms']);
    expect(conform('POST', '/v2/quickinvoices/{id}/resend', await e.post('/quickinvoices/nope/resend')).status).toBe(404);
    expect(conform('DELETE', '/v2/quickinvoices/{id}', await e.del(`/quickinvoices/${inv.id}`)).status).toBe(204);
    expect((await e.del(`/quickinvoices/${inv.id}`)).status).toBe(404);
  });

  test('reminders before, on and after the due date run as due work on the sandbox clock, once each', async () => {
    const today = locationToday(e.engine.ctx, e.locationId); // the location's date (New York), not UTC's
    const due = new Date(Date.parse(today) + 10 * 86_400_000).toISOString().slice(0, 10);
    const inv = (await e.post('/quickinvoices', { quickinvoice: { ...base(), due_date: due, notification_days_before_due_date: 2, notification_days_after_due_date: 3 } })).body.quickinvoice;
    const reminders = () => outbox(inv.id).filter((m) => m.kind === 'invoice_reminder').map((m) => m.subject);
    const advance = (days: number) => e.post(api('/sandbox/clock/advance'), { clock: { location_id: e.locationId, seconds: days * 86_400 } });
    await advance(7); // due − 3
    expect(reminders()).toEqual([]);
    await advance(1); // due − 2
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0]).toContain(`Reminder: invoice due ${due}`);
    await e.engine.ctx.runDueWork(e.locationId);
    expect(reminders()).toHaveLength(1);
    await advance(2); // due date
    expect(reminders()[1]).toContain('Invoice due today');
    await advance(3); // due + 3
    expect(reminders()[2]).toContain('Overdue invoice');
    await advance(30);
    expect(reminders()).toHaveLength(3);
    // After a restart on the same data the scheduler's catch-up sends nothing again.
    const dataDir = e.dataDir;
    await e.close(false);
    e = await TestEngine.start({ dataDir, schedulerIntervalMs: 0 });
    await e.engine.ctx.runDueWork();
    expect(reminders()).toHaveLength(3);
  });

  test('0 days before or after the due date sends no reminder of that kind (the family bounds them by length: 0 to 99)', async () => {
    const today = locationToday(e.engine.ctx, e.locationId); // the location's date (New York), not UTC's
    const due = new Date(Date.parse(today) + 3 * 86_400_000).toISOString().slice(0, 10);
    const a = await e.post('/quickinvoices', { quickinvoice: { ...base(), due_date: due, notification_days_before_due_date: '0', notification_on_due_date: '0', notification_days_after_due_date: 0 } });
    const inv = conform('POST', '/v2/quickinvoices', a).body.quickinvoice;
    expect(inv).toMatchObject({ notification_days_before_due_date: 0, notification_on_due_date: 0, notification_days_after_due_date: 0 });
    expect(errorsOf(await e.post('/quickinvoices', { quickinvoice: { ...base(), notification_days_before_due_date: -1 } }), 'notification_days_before_due_date')).toHaveLength(1);
    const advance = (days: number) => e.post(api('/sandbox/clock/advance'), { clock: { location_id: e.locationId, seconds: days * 86_400 } });
    for (let d = 0; d < 6; d++) await advance(1);
    expect(outbox(inv.id).filter((m) => m.kind === 'invoice_reminder')).toEqual([]);
  });
});

test('every answer above matches the OpenAPI document', () => {
  expect(problems).toEqual([]);
});

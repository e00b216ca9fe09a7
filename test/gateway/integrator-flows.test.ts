/**
 * What an integrator does on the first day against the engine, written from the interface
 * document (seed/000_365deaa8ad2d6508.txt) and GATEWAY-FACTS, over real HTTP on port 0:
 * - a card day chained by id (authorize, charge, void the authorization, refund the charge)
 *   and a bank day (an ACH debit, then an ACH credit naming it), each request carrying the
 *   three credential headers and the location's product transaction;
 * - a card saved for a contact and charged by its vault; a sale for a contact;
 * - an expired card: processed (201) and declined, nothing vaulted;
 * - Level 3 sent as one body for both card networks, numbers as text;
 * - a quick invoice made long after its due date, with no reminder before or on it;
 * - a router sale on the sandbox's built-in mock terminal with the integrator's own fields;
 * - a body that is not JSON;
 * - the engine behind a TLS front, as an integrator who only speaks HTTPS reaches it.
 * Values are the project's own; the card numbers, routing number and amounts are the
 * sandbox's test data (GATEWAY-FACTS).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../electron/gateway/framework/errors';
import { REASON } from '../../electron/gateway/payments/processor-simulator';
import { TestEngine, errorsOf } from './helpers/engine-fixture';

const MC = '5454545454545454';
const VISA_CORPORATE = '4005562231212149';
const MC_CORPORATE = '5405222222222226';
/** A future expiry that is not today's: December 2039. */
const EXP = '1239';

let t: TestEngine;
beforeAll(async () => {
  // The scheduler stays off: the invoice's due work runs when the test says so.
  t = await TestEngine.start({ deviceSecondMs: 4, schedulerIntervalMs: 0 });
});
afterAll(async () => {
  await t?.close();
});

const creds = () => t.engine.credentials;
const card = () => ({ payment_method: 'cc', location_id: creds().location_id, product_transaction_id: creds().cc_product_transaction_id, account_number: MC, exp_date: EXP, cvv: '999' });
const bank = () => ({
  payment_method: 'ach', location_id: creds().location_id, product_transaction_id: creds().ach_product_transaction_id,
  account_number: '40020061387', routing: '072000326', account_type: 'checking', account_holder_name: 'Harbor Books LLC',
});

describe('a day chained by id', () => {
  it('card: an authorization, a sale, the authorization voided, the sale refunded by previous_transaction_id', async () => {
    const auth = await t.post('/transactions', {
      transaction: { ...card(), action: 'authonly', transaction_amount: '18.40', tax: '1.40', po_number: 'PO 5521', order_num: 'Order 1893456000',
        billing_street: '5800 NW 39th AVE', billing_zip: '32606', custom_data: { lane: 3, shift: 'late', items: ['scarf', 'gloves'] } },
    });
    expect(auth.status, auth.text).toBe(201);
    const a = auth.body.transaction;
    expect(a).toMatchObject({ action: 'authonly', status_id: 102, type_id: 20, location_id: creds().location_id, product_transaction_id: creds().cc_product_transaction_id,
      po_number: 'PO 5521', order_num: 'Order 1893456000', custom_data: { lane: 3, shift: 'late', items: ['scarf', 'gloves'] }, avs: 'GOOD', cvv_response: 'M' });

    const sale = await t.post('/transactions', { transaction: { ...card(), action: 'sale', transaction_amount: '26.00', order_num: 'Order 1893456001', billing_zip: '32606' } });
    expect(sale.status, sale.text).toBe(201);
    const s = sale.body.transaction;
    // The card type is the engine's reading of the number.
    expect(s).toMatchObject({ action: 'sale', status_id: 101, reason_code_id: 1000, account_type: 'mc', first_six: '545454', last_four: '5454', transaction_amount: '26.00' });

    const voided = await t.put(`/transactions/${a.id as string}`, { transaction: { action: 'void' } });
    expect(voided.status, voided.text).toBe(200);
    expect(voided.body.transaction).toMatchObject({ id: a.id, status_id: 201, reason_code_id: 1200 });

    const refund = await t.post('/transactions', { transaction: { action: 'refund', payment_method: 'cc', location_id: creds().location_id, previous_transaction_id: s.id, transaction_amount: '26.00' } });
    expect(refund.status, refund.text).toBe(201);
    expect(refund.body.transaction).toMatchObject({ action: 'refund', status_id: 111, type_id: 30, previous_transaction_id: s.id, transaction_amount: '26.00', last_four: '5454' });

    // Each record reads back as answered; the card number and CVV never come back.
    const back = await t.get(`/transactions/${a.id as string}`);
    expect(back.body.transaction).toMatchObject({ status_id: 201, custom_data: { lane: 3, shift: 'late', items: ['scarf', 'gloves'] } });
    for (const answer of [auth, sale, voided, refund, back]) {
      expect(answer.text).not.toContain(MC);
      expect(answer.text).not.toContain('"999"');
    }
  });

  it('bank: an ACH debit (WEB) with the integrator\'s transaction_api_id, then an ACH credit (CCD) naming it', async () => {
    const debit = await t.post('/transactions', { transaction: { ...bank(), action: 'debit', transaction_amount: '42.15', ach_sec_code: 'WEB', transaction_api_id: 'books-debit-1893456000' } });
    expect(debit.status, debit.text).toBe(201);
    const d = debit.body.transaction;
    expect(d).toMatchObject({ action: 'debit', payment_method: 'ach', status_id: 131, type_id: 50, ach_sec_code: 'WEB', transaction_api_id: 'books-debit-1893456000',
      product_transaction_id: creds().ach_product_transaction_id, last_four: '1387' });

    const credit = await t.post('/transactions', { transaction: { ...bank(), action: 'credit', previous_transaction_id: d.id, transaction_amount: '42.15', ach_sec_code: 'CCD', account_number: undefined, routing: undefined } });
    expect(credit.status, credit.text).toBe(201);
    expect(credit.body.transaction).toMatchObject({ action: 'credit', payment_method: 'ach', status_id: 131, type_id: 40, previous_transaction_id: d.id, ach_sec_code: 'CCD', last_four: '1387' });

    // The debit is found again by the integrator's own id.
    const byApiId = await t.get(`/transactions/books-debit-1893456000?location_id=${creds().location_id}&api_id=true`);
    expect(byApiId.body.transaction.id).toBe(d.id);
    expect(debit.text + credit.text).not.toContain('40020061387');
  });
});

describe('saved cards and contacts', () => {
  it('a card saved for a contact answers masked; a sale on the vault and a keyed sale carry the contact', async () => {
    const contact = await t.post('/contacts', { contact: { location_id: creds().location_id, first_name: 'Ada', last_name: 'Okafor', email: 'ada@example.com' } });
    expect(contact.status, contact.text).toBe(201);
    const contactId = contact.body.contact.id as string;

    const vault = await t.post('/accountvaults', {
      accountvault: { payment_method: 'cc', location_id: creds().location_id, contact_id: contactId, account_number: MC, exp_date: EXP, title: 'Ada card on file',
        account_holder_name: 'Ada Okafor', billing_street: '5800 NW 39th AVE', billing_city: 'Gainesville', billing_state: 'FL', billing_zip: '32606', billing_phone: '3525550142' },
    });
    expect(vault.status, vault.text).toBe(201);
    const v = vault.body.accountvault;
    expect(v).toMatchObject({ contact_id: contactId, title: 'Ada card on file', first_six: '545454', last_four: '5454', account_type: 'mc', billing_city: 'Gainesville' });
    expect(vault.text).not.toContain(MC);

    const onVault = await t.post('/transactions', { transaction: { action: 'sale', location_id: creds().location_id, account_vault_id: v.id, transaction_amount: '9.95' } });
    expect(onVault.status, onVault.text).toBe(201);
    expect(onVault.body.transaction).toMatchObject({ status_id: 101, account_vault_id: v.id, contact_id: contactId, last_four: '5454' });

    const keyed = await t.post('/transactions', { transaction: { ...card(), action: 'sale', transaction_amount: '4.50', contact_id: contactId, account_holder_name: 'Ada Okafor', description: 'Counter sale' } });
    expect(keyed.status, keyed.text).toBe(201);
    expect(keyed.body.transaction).toMatchObject({ status_id: 101, contact_id: contactId, account_holder_name: 'Ada Okafor', description: 'Counter sale' });
  });

  it('an expired card is processed (201) and declined as expired; asking to save it vaults nothing', async () => {
    const vaults = () => (t.engine.ctx.stmt('SELECT COUNT(*) AS n FROM account_vaults').get() as { n: number }).n;
    const before = vaults();
    // January 2020: a month every run of this test is after.
    const r = await t.post('/transactions', { transaction: { ...card(), action: 'sale', exp_date: '0120', transaction_amount: '7.00', tax: '0.50', save_account: 1, order_num: 'Order 1893456002' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.transaction).toMatchObject({ status_id: 301, reason_code_id: REASON.cardExpired, verbiage: 'EXPIRED CARD', auth_amount: '0.00', account_vault_id: null, exp_date: '0120' });
    expect(vaults()).toBe(before);
  });
});

describe('Level 3 as one body for both card networks', () => {
  /** Both networks' line-item fields, every number sent as text (as form posts and XML send them). */
  const lineItem = (description: string, productCode: string) => ({
    description, product_code: productCode, commodity_code: '44121600', quantity: '3', unit_code: 'EA', unit_cost: '4.2500', tax_amount: '0.89', tax_rate: '7',
    discount_amount: '0', other_tax_amount: '0', alternate_tax_id: 'FL-SALES', tax_type_applied: 'ST', tax_type_id: '01', debit_credit: 'D', discount_rate: '0',
  });
  const level3 = (transactionId: string) => ({
    transactionlevel3: {
      transaction_id: transactionId,
      level3_data: {
        national_tax: '0', sales_tax: '1.78', tax_amount: '1.78', tax_exempt: '0', freight_amount: '5.00', duty_amount: '0',
        shipfrom_zip_code: '32606', shipto_zip_code: '33602', destination_country_code: '840',
        line_items: [lineItem('Printer paper', 'PAP-A4'), lineItem('Toner black', 'TON-12')],
      },
    },
  });
  const corporateSale = async (cardNumber: string) => {
    const r = await t.post('/transactions', { transaction: { ...card(), account_number: cardNumber, action: 'sale', transaction_amount: '32.28' } });
    expect(r.status, r.text).toBe(201);
    return r.body.transaction.id as string;
  };

  it('on a Visa corporate card: 201, numbers returned as numbers, the Visa fields kept and the Mastercard ones dropped', async () => {
    const id = await corporateSale(VISA_CORPORATE);
    const r = await t.post('/transactionlevel3s', level3(id));
    expect(r.status, r.text).toBe(201);
    const data = r.body.transactionlevel3.level3_data;
    expect(data).toMatchObject({ sales_tax: 1.78, freight_amount: 5, destination_country_code: '840', shipto_zip_code: '33602', tax_exempt: '0' });
    expect(data.line_items).toHaveLength(2);
    expect(data.line_items[0]).toMatchObject({ description: 'Printer paper', commodity_code: '44121600', quantity: 3, unit_cost: 4.25, unit_code: 'EA', other_tax_amount: 0 });
    expect(data.line_items[0]).not.toHaveProperty('debit_credit');
    expect(data.line_items[0]).not.toHaveProperty('tax_type_id');
    const stored = await t.get(`/transactions/${id}?expand=transaction_level3`);
    expect(stored.body.transaction.transaction_level3.level3_data.line_items.map((x: { product_code: string }) => x.product_code)).toEqual(['PAP-A4', 'TON-12']);
  });

  it('on a Mastercard corporate card: the same body keeps the Mastercard fields and drops the Visa ones', async () => {
    const id = await corporateSale(MC_CORPORATE);
    const r = await t.post('/transactionlevel3s', level3(id));
    expect(r.status, r.text).toBe(201);
    const item = r.body.transactionlevel3.level3_data.line_items[1];
    expect(item).toMatchObject({ description: 'Toner black', debit_credit: 'D', tax_type_id: '01', tax_type_applied: 'ST', alternate_tax_id: 'FL-SALES', discount_rate: 0 });
    expect(item).not.toHaveProperty('commodity_code');
    expect(item).not.toHaveProperty('other_tax_amount');
  });
});

describe('a quick invoice made after its due date', () => {
  it('is taken (201); day counts sent as text are integers; 0 days before and no on-due notice leave only the overdue reminder, 7 days after by default', async () => {
    const r = await t.post('/quickinvoices', {
      quickinvoice: { location_id: creds().location_id, title: 'Spring window cleaning', due_date: '2021-03-15', item_list: { 'Front windows': 35, 'Back windows': '27.50' },
        email: 'accounts@harbor-books.example', notification_days_before_due_date: '0', notification_on_due_date: '0' },
    });
    expect(r.status, r.text).toBe(201);
    const qi = r.body.quickinvoice;
    expect(qi).toMatchObject({ due_date: '2021-03-15', amount_due: '62.50', remaining_balance: '62.50', status_id: 1, payment_status_id: 1,
      cc_product_transaction_id: creds().cc_product_transaction_id, notification_days_before_due_date: 0, notification_on_due_date: 0, notification_days_after_due_date: 7 });
    const sent = () => t.engine.ctx.stmt('SELECT kind, to_address, link, subject FROM notification_outbox WHERE resource_id = ? ORDER BY rowid').all(qi.id) as { kind: string; to_address: string; link: string; subject: string }[];
    expect(sent()).toEqual([{ kind: 'quick_invoice', to_address: 'accounts@harbor-books.example', link: `${new URL(t.engine.baseUrl).origin}/quickinvoice/?id=${qi.id as string}`, subject: expect.any(String) }]);
    // Due work twice: the overdue reminder goes once, nothing for "before" or "on" the due date.
    await t.engine.ctx.runDueWork(creds().location_id);
    await t.engine.ctx.runDueWork(creds().location_id);
    expect(sent().map((m) => m.kind)).toEqual(['quick_invoice', 'invoice_reminder']);
    expect(sent()[1]!.subject).toContain('Overdue invoice: was due 2021-03-15');
  });
});

describe("a router sale on the sandbox's mock terminal", () => {
  it("answers 201 with the integrator's fields, the card read on the terminal (masked) and a link to the transaction", async () => {
    const terminal = ((await t.get('/terminals?page_size=100')).body.terminals as { id: string; title: string }[]).find((x) => x.title === 'Demo Terminal')!;
    const r = await t.post('/routertransactions', {
      routertransaction: { action: 'sale', payment_method: 'cc', location_id: creds().location_id, terminal_id: terminal.id, transaction_amount: '12.34', tax: '0.81',
        order_num: 'Order 1893456003', description: 'Lane 2 sale', billing_street: '5800 NW 39th AVE', billing_zip: '32606' },
    });
    expect(r.status, r.text).toBe(201);
    const rt = r.body.routertransaction;
    expect(rt).toMatchObject({ status_id: 101, terminal_id: terminal.id, location_id: creds().location_id, transaction_amount: '12.34', tax: '0.81',
      order_num: 'Order 1893456003', description: 'Lane 2 sale', entry_mode_id: 'C', first_six: '411111', last_four: '1111' });
    expect(rt.emv_receipt_data).toMatchObject({ AID: expect.any(String), TVR: expect.any(String) });
    expect(rt._links.self.href).toBe(t.url(`/transactions/${rt.id as string}`));
    expect(r.text).not.toContain('4111111111111111');
  });
});

describe('a body that is not JSON', () => {
  it('a contact with a comma missing is a 400 in the envelope, and no contact is made', async () => {
    const raw = `{"contact": {"location_id": "${creds().location_id}", "last_name": "Lindqvist" "first_name": "Maja"}}`;
    const r = await t.post('/contacts', undefined, { raw });
    expect(r.status).toBe(400);
    expect(errorsOf(r)).toEqual([MSG.MALFORMED_JSON]);
    expect((await t.get(`/contacts?last_name=Lindqvist`)).body.contacts).toEqual([]);
  });
});

describe('the engine behind a TLS front', () => {
  let work: string;
  let front: Server;
  let frontPort = 0;
  let cert = '';

  beforeAll(async () => {
    // A certificate for 127.0.0.1 made by openssl for this run (Node makes keys, not certificates).
    work = mkdtempSync(join(tmpdir(), 'ringup-tls-front-'));
    const keyFile = join(work, 'front.key');
    const certFile = join(work, 'front.crt');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', keyFile, '-out', certFile,
      '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: ['ignore', 'ignore', 'pipe'] });
    cert = readFileSync(certFile, 'utf8');
    // The front ends TLS and passes each request to the engine with the engine's own Host, as a
    // reverse proxy does by default (nginx's proxy_set_header Host $proxy_host).
    front = createHttpsServer({ key: readFileSync(keyFile), cert }, (req, res) => pass(req, res));
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    frontPort = (front.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => front?.close(r));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  function pass(req: IncomingMessage, res: ServerResponse): void {
    const engine = new URL(t.engine.baseUrl);
    const upstream = httpRequest({ host: engine.hostname, port: engine.port, method: req.method, path: req.url, headers: { ...req.headers, host: engine.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }

  /** One HTTPS request to the front, trusting `ca` (the system's authorities when absent); certificate checks stay on. */
  function overTls(path: string, body: unknown, ca?: string): Promise<{ status: number; json: Record<string, Record<string, unknown>> }> {
    const c = creds();
    const text = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port: frontPort, method: 'POST', path: `/v2${path}`, ca,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key } }, (res) => {
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (answer += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(answer) as Record<string, Record<string, unknown>> }));
      });
      req.on('error', reject);
      req.end(text);
    });
  }

  it('a client that trusts the certificate runs a sale over HTTPS (201); one that does not trust it is refused before anything is sent', async () => {
    const sale = { transaction: { ...card(), action: 'sale', transaction_amount: '3.75', description: 'Sale over TLS' } };
    const r = await overTls('/transactions', sale, cert);
    expect(r.status).toBe(201);
    expect(r.json.transaction).toMatchObject({ status_id: 101, description: 'Sale over TLS', last_four: '5454' });
    const before = (await t.get('/transactions?description=Sale over TLS')).body.transactions.length;
    // The system's authorities only: the self-signed front is not trusted.
    await expect(overTls('/transactions', sale)).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
    expect((await t.get('/transactions?description=Sale over TLS')).body.transactions.length).toBe(before);
  });
});

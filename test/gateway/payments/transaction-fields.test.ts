/**
 * Every field of the table is validated with its bounds, stored and returned; fields an
 * action does not take are refused; the amount parts add up (also on authcomplete); the
 * documented expands answer (never a user's secrets); the README's table is the table's
 * rendering.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../electron/gateway/framework/errors';
import { PAY_MSG } from '../../../electron/gateway/payments/payment-messages';
import { renderFieldTable, TRANSACTION_FIELDS } from '../../../electron/gateway/payments/transaction-fields';
import { startHarness, VISA, EXP, type Harness } from './engine-harness';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const card = { payment_method: 'cc', account_number: VISA, exp_date: EXP };
const post = (extra: Record<string, unknown>) => h.call('POST', '/transactions', { transaction: { action: 'sale', ...card, transaction_amount: '10.00', ...extra } });
const put = (id: string, extra: Record<string, unknown>) => h.call('PUT', `/transactions/${id}`, { transaction: extra });

describe('stored and returned', () => {
  it('keeps every record field a card sale takes, as sent', async () => {
    const sent = {
      transaction_amount: '12.50', subtotal_amount: '10.00', tax: '1.00', tip_amount: '1.00', surcharge_amount: '0.50',
      additional_amounts: [{ type: '4S', amount: '2.00' }], description: 'Room 12', order_num: 'A1001', po_number: 'PO77', clerk_number: 'C-9',
      customer_id: 'cust-1', customer_ip: '203.0.113.9', billing_street: '5800 NW 39th AVE', billing_zip: '32606', billing_city: 'Gainesville',
      billing_state: 'FL', billing_phone: '3525550100', transaction_c1: 'one', transaction_c2: 'two', transaction_c3: 'three',
      custom_data: { table: 4 }, tags: ['vip', 'patio'], terminal_serial_number: 'SN-1', locale: 'en_US', terms_agree: true,
      card_present: false, checkin_date: '2031-01-02', checkout_date: '2031-01-05', room_num: '12', room_rate: '99.00', advance_deposit: false,
      no_show: false, save_account_title: 'Visa', auto_decline_cvv_override: false, auto_decline_zip_override: false,
      auto_decline_street_override: false, allow_partial_authorization_override: true,
    };
    const r = await post(sent);
    expect(r.status).toBe(201);
    const expected = { ...sent, terms_agree: true, additional_amounts: [{ type: '4S', amount: '2.00' }] };
    expect(r.body.transaction).toMatchObject(expected);
    const back = await h.call('GET', `/transactions/${r.body.transaction.id}`);
    expect(back.body.transaction).toMatchObject(expected);
  });

  it('every record field is on every record, null when unset; never-stored fields never', async () => {
    const r = await post({ cvv: '999', ssn4: undefined });
    for (const name of ['description', 'tax', 'tip_amount', 'billing_zip', 'transaction_c1', 'custom_data', 'check_number', 'effective_date']) {
      expect(r.body.transaction).toHaveProperty(name, null);
    }
    expect(r.body.transaction.additional_amounts).toEqual([]);
    // Kept inputs that were not sent are there too, null (documented-response-keys.test.ts walks them all).
    expect(r.body.transaction).toHaveProperty('room_rate', null);
    for (const f of TRANSACTION_FIELDS.filter((x) => x.storage === 'never')) expect(r.body.transaction).not.toHaveProperty(f.name);
    const stored = h.engine.db.prepare('SELECT doc FROM transactions WHERE id = ?').get(r.body.transaction.id) as { doc: string };
    expect(stored.doc).not.toContain('"999"');
  });
});

describe('bounds and actions', () => {
  it('answers named messages for bounds, patterns, types', async () => {
    const r = await post({ description: 'x'.repeat(65), order_num: 'A#1', billing_zip: '123', no_show: 'maybe', checkin_date: '2031-02-30', custom_data: { s: 'x'.repeat(600) }, e_serial_number: 'xyz' });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({
      description: ['Description should contain at most 64 characters.'],
      order_num: [PAY_MSG.FIELD_PATTERN.replace('{attribute}', 'Order Num').replace('{what}', 'letters, digits, spaces and periods')],
      billing_zip: ['Billing Zip should contain at least 4 characters.'],
      no_show: [MSG.NOT_BOOLEAN.replace('{attribute}', 'No Show')],
      checkin_date: [MSG.BAD_DATE.replace('{attribute}', 'Checkin Date')],
      custom_data: [PAY_MSG.JSON_TOO_LONG.replace('{attribute}', 'Custom Data').replace('{max}', '512')],
      e_serial_number: [PAY_MSG.FIELD_ENCODING.replace('{attribute}', 'E Serial Number').replace('{encoding}', 'hexadecimal')],
    });
  });

  it("takes what integrators send: spaces in order_num and po_number, periods in order_num, a card type in account_type", async () => {
    // Order numbers built from a word and the Unix time ("Order 1893456000"), with a fraction when a
    // client takes the seconds as a double ("Order 1893456000.25"); a card type the engine reads itself.
    const r = await post({ order_num: 'Order 1893456000', po_number: 'PO 77', account_type: 'mc' });
    expect(r.status).toBe(201);
    expect(r.body.transaction).toMatchObject({ order_num: 'Order 1893456000', po_number: 'PO 77', account_type: 'visa' });
    const dotted = await post({ order_num: 'Order 1893456000.25' });
    expect(dotted.status).toBe(201);
    expect(dotted.body.transaction.order_num).toBe('Order 1893456000.25');
    expect((await post({ po_number: 'PO.77' })).body.errors).toHaveProperty('po_number');
    const bad = await post({ order_num: 'A#1', account_type: 'gold' });
    expect(Object.keys(bad.body.errors).sort()).toEqual(['account_type', 'order_num']);
  });

  it('bounds an engine-read field too (account_holder_name, 32)', async () => {
    const r = await post({ account_holder_name: 'x'.repeat(33) });
    expect(r.body.errors.account_holder_name).toEqual(['Account Holder Name should contain at most 32 characters.']);
  });

  it('refuses a field the action does not take instead of dropping it', async () => {
    const r = await post({ auth_code: 'ABC123', effective_date: '2031-01-01' });
    expect(r.status).toBe(422);
    expect(r.body.errors.auth_code).toEqual([PAY_MSG.FIELD_NOT_FOR_ACTION.replace('{attribute}', 'Auth Code').replace('{action}', 'sale')]);
    expect(r.body.errors.effective_date).toEqual([PAY_MSG.FIELD_NOT_FOR_ACTION.replace('{attribute}', 'Effective Date').replace('{action}', 'sale')]);
    const s = (await post({})).body.transaction;
    const v = await put(s.id, { action: 'void', tip_amount: '1.00' });
    expect(v.status).toBe(422);
    expect(v.body.errors.tip_amount).toEqual([PAY_MSG.FIELD_NOT_FOR_ACTION.replace('{attribute}', 'Tip Amount').replace('{action}', 'void')]);
    expect((await h.call('GET', `/transactions/${s.id}`)).body.transaction.status_id).toBe(101);
  });

  it('additional amounts and lodging dates are checked', async () => {
    const badType = await post({ additional_amounts: [{ type: '9Z', amount: '1.00' }] });
    expect(badType.body.errors.additional_amounts).toEqual([PAY_MSG.ADDITIONAL_AMOUNTS_INVALID]);
    const tooBig = await post({ additional_amounts: [{ type: '4U', amount: '10.01' }] });
    expect(tooBig.body.errors.additional_amounts).toEqual([PAY_MSG.ADDITIONAL_AMOUNT_EXCEEDS]);
    const order = await post({ checkin_date: '2031-01-05', checkout_date: '2031-01-02' });
    expect(order.body.errors.checkout_date).toEqual([PAY_MSG.STAY_ORDER]);
    const long = await post({ checkin_date: '2031-01-01', checkout_date: '2031-06-01' });
    expect(long.body.errors.checkout_date).toEqual([PAY_MSG.STAY_TOO_LONG]);
  });
});

describe("the docs' optional and conditional fields per action (Transactions README, Applicable Actions: O, C)", () => {
  it('authcomplete takes payment_method, exp_date and order_num; authincrement and partialreversal take account_holder_name', async () => {
    const a = (await post({ action: 'authonly', transaction_amount: '30.00' })).body.transaction;
    const inc = await put(a.id, { action: 'authincrement', transaction_amount: '4.00', account_holder_name: 'Pat Doe', order_num: 'ORD 7' });
    expect(inc.status, inc.text).toBe(200);
    expect(inc.body.transaction).toMatchObject({ account_holder_name: 'Pat Doe', order_num: 'ORD 7' });
    const pr = await put(a.id, { action: 'partialreversal', transaction_amount: '25.00', account_holder_name: 'Pat Q Doe' });
    expect(pr.status, pr.text).toBe(200);
    expect(pr.body.transaction.account_holder_name).toBe('Pat Q Doe');
    const wrongMethod = await put(a.id, { action: 'authcomplete', payment_method: 'ach' });
    expect(wrongMethod.body.errors.payment_method).toEqual([PAY_MSG.TRANSACTION_METHOD.replace('{method}', 'cc')]);
    const done = await put(a.id, { action: 'authcomplete', payment_method: 'cc', exp_date: '1231', order_num: 'ORD 8' });
    expect(done.status, done.text).toBe(200);
    expect(done.body.transaction).toMatchObject({ status_id: 101, exp_date: '1231', order_num: 'ORD 8' });
  });

  it('void takes transaction_api_id, notification_email_address, tags, room_num and its own amount; refund takes no_show', async () => {
    const s = (await post({ transaction_api_id: 'void-doc-1' })).body.transaction;
    const other = await put(s.id, { action: 'void', transaction_api_id: 'another-id' });
    expect(other.body.errors.transaction_api_id).toEqual([PAY_MSG.API_ID_MISMATCH.replace('{current}', 'void-doc-1')]);
    const part = await put(s.id, { action: 'void', transaction_amount: '4.00' });
    expect(part.body.errors.transaction_amount).toEqual([PAY_MSG.VOID_AMOUNT.replace('{amount}', '10.00')]);
    const v = await put(s.id, { action: 'void', transaction_api_id: 'void-doc-1', transaction_amount: '10.00', notification_email_address: 'pat@example.com', tags: ['voided-at-desk'], room_num: '12B' });
    expect(v.status, v.text).toBe(200);
    expect(v.body.transaction).toMatchObject({ status_id: 201, notification_email_sent: true, tags: ['voided-at-desk'], room_num: '12B' });
    const sale = (await post({})).body.transaction;
    const r = await h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_id: sale.id, transaction_amount: '1.00', no_show: 1 } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.transaction.no_show).toBe(true);
    // A record without an api id gets the one a PUT sends (unique in the location).
    const bare = (await post({})).body.transaction;
    const named = await put(bare.id, { action: 'void', transaction_api_id: 'named-by-void' });
    expect(named.body.transaction.transaction_api_id).toBe('named-by-void');
  });

  it('account_holder_name sent with a vault or a previous transaction is kept on the record', async () => {
    const loc = h.engine.credentials.location_id;
    const v = (await h.call('POST', '/accountvaults', { accountvault: { location_id: loc, payment_method: 'cc', account_number: VISA, exp_date: EXP, account_holder_name: 'Vault Name' } })).body.accountvault;
    const sale = await post({ account_number: undefined, exp_date: undefined, account_vault_id: v.id, account_holder_name: 'Pat Holder' });
    expect(sale.body.transaction).toMatchObject({ status_id: 101, account_holder_name: 'Pat Holder' });
    const plain = await post({ account_number: undefined, exp_date: undefined, account_vault_id: v.id });
    expect(plain.body.transaction.account_holder_name).toBe('Vault Name');
    const again = await post({ account_number: undefined, exp_date: undefined, previous_transaction_id: plain.body.transaction.id, account_holder_name: 'Pat Again' });
    expect(again.body.transaction.account_holder_name).toBe('Pat Again');
  });

  it("the docs' edit with contact_id and move_account_vault(_transactions) moves the vault and its transactions to the contact", async () => {
    const loc = h.engine.credentials.location_id;
    const first = (await h.call('POST', '/contacts', { contact: { location_id: loc, last_name: 'First' } })).body.contact;
    const second = (await h.call('POST', '/contacts', { contact: { location_id: loc, last_name: 'Second' } })).body.contact;
    const saved = (await post({ save_account: 1, contact_id: first.id })).body.transaction;
    const vaultId = saved.account_vault_id as string;
    const again = (await post({ account_number: undefined, exp_date: undefined, account_vault_id: vaultId })).body.transaction;
    expect(again.contact_id).toBe(first.id);
    const edit = await put(saved.id, { action: 'edit', contact_id: second.id, move_account_vault: 1, move_account_vault_transactions: 1, description: 'Moved to the second contact' });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.transaction).toMatchObject({ contact_id: second.id, description: 'Moved to the second contact' });
    expect((await h.call('GET', `/accountvaults/${vaultId}`)).body.accountvault.contact_id).toBe(second.id);
    expect((await h.call('GET', `/transactions/${again.id}`)).body.transaction.contact_id).toBe(second.id);
    // Without move_account_vault only this transaction moves; "" disassociates it.
    const alone = await put(again.id, { action: 'edit', contact_id: first.id });
    expect(alone.body.transaction.contact_id).toBe(first.id);
    expect((await h.call('GET', `/accountvaults/${vaultId}`)).body.accountvault.contact_id).toBe(second.id);
    const none = await put(again.id, { action: 'edit', contact_id: '' });
    expect(none.body.transaction.contact_id).toBeNull();
    // The move needs a contact; another location's contact is refused.
    const noContact = await put(saved.id, { action: 'edit', move_account_vault: 1 });
    expect(noContact.body.errors.move_account_vault).toEqual([PAY_MSG.MOVE_NEEDS_CONTACT]);
    const unknown = await put(saved.id, { action: 'edit', contact_id: 'no-such-contact' });
    expect(unknown.body.errors.contact_id).toEqual([PAY_MSG.CONTACT_INVALID]);
  });
});

describe('amount parts', () => {
  it('subtotal + tax + tip + surcharge must equal transaction_amount', async () => {
    const r = await post({ transaction_amount: '12.00', subtotal_amount: '10.00', tax: '1.00' });
    expect(r.status).toBe(422);
    expect(r.body.errors.subtotal_amount[0]).toContain('must add up to Transaction Amount (12.00)');
    const over = await post({ transaction_amount: '5.00', tax: '3.00', tip_amount: '3.00' });
    expect(over.body.errors.transaction_amount).toEqual([PAY_MSG.PARTS_EXCEED.replace('{sum}', '6.00').replace('{amount}', '5.00')]);
  });

  it('an authcomplete of a different amount must send the parts again (422 otherwise)', async () => {
    const a = (await post({ action: 'authonly', transaction_amount: '22.00', subtotal_amount: '20.00', tax: '2.00' })).body.transaction;
    const bare = await put(a.id, { action: 'authcomplete', transaction_amount: '16.50' });
    expect(bare.status).toBe(422);
    expect(bare.body.errors.subtotal_amount).toEqual([PAY_MSG.PARTS_REQUIRED]);
    const wrong = await put(a.id, { action: 'authcomplete', transaction_amount: '16.50', subtotal_amount: '15.00', tax: '1.00' });
    expect(wrong.status).toBe(422);
    const ok = await put(a.id, { action: 'authcomplete', transaction_amount: '16.50', subtotal_amount: '15.00', tax: '1.50' });
    expect(ok.status).toBe(200);
    expect(ok.body.transaction).toMatchObject({ transaction_amount: '16.50', subtotal_amount: '15.00', tax: '1.50', status_id: 101 });
    const b = (await post({ action: 'authonly', transaction_amount: '22.00', subtotal_amount: '20.00', tax: '2.00' })).body.transaction;
    expect((await put(b.id, { action: 'authcomplete', transaction_amount: '22.00' })).status).toBe(200);
  });
});

describe('expands', () => {
  it('answers the documented expands without a user\'s secrets', async () => {
    const s = (await post({ tags: ['vip'], description: 'before' })).body.transaction;
    expect((await put(s.id, { action: 'edit', description: 'after', tags: ['vip', 'regular'] })).status).toBe(200);
    const names = 'created_user,location,product_transaction,tags,signature,quick_invoice,recurring,reason_code,status,type,changelogs';
    const r = await h.call('GET', `/transactions/${s.id}?expand=${names}`);
    expect(r.status).toBe(200);
    const t = r.body.transaction;
    expect(t.created_user.id).toBe(h.engine.credentials.user_id);
    for (const secret of ['user_api_key', 'user_hash_key', 'password', 'password_hash']) expect(t.created_user).not.toHaveProperty(secret);
    expect(r.text).not.toContain(h.engine.credentials.user_api_key);
    expect(t.location.id).toBe(h.engine.credentials.location_id);
    expect(t.product_transaction.id).toBe(s.product_transaction_id);
    expect(t.tags.map((x: { title: string }) => x.title)).toEqual(['vip', 'regular']);
    expect([t.signature, t.quick_invoice, t.recurring]).toEqual([null, null, null]);
    expect(t.reason_code).toMatchObject({ id: 1000 });
    expect(t.status).toEqual({ id: 101, title: 'Approved' });
    expect(t.type).toEqual({ id: 20, title: 'Sale' });
    expect(t.changelogs).toHaveLength(1);
    expect(t.changelogs[0]).toMatchObject({ action: 'edit', user_id: h.engine.credentials.user_id, changes: { description: ['before', 'after'], tags: [['vip'], ['vip', 'regular']] } });
  });
});

describe('one declaration', () => {
  it('bounds the engine-read fields from the table too (ids and api ids give "too long", not "invalid")', async () => {
    const r = await post({ account_vault_api_id: 'v'.repeat(37), location_api_id: 'l'.repeat(37), contact_id: 'c'.repeat(37) });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({
      account_vault_api_id: ['Account Vault Api Id should contain at most 36 characters.'],
      location_api_id: ['Location Api Id should contain at most 36 characters.'],
      contact_id: ['Contact Id should contain at most 36 characters.'],
    });
    const refund = await h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_api_id: 'p'.repeat(65), transaction_amount: '1.00' } });
    expect(refund.body.errors).toEqual({ previous_transaction_api_id: ['Previous Transaction Api Id should contain at most 64 characters.'] });
  });

  it('which actions require a field is in the table: the checks and the OpenAPI document read it there', async () => {
    const required = Object.fromEntries(TRANSACTION_FIELDS.filter((f) => f.requiredFor).map((f) => [f.name, [...(f.requiredFor ?? [])]]));
    expect(required).toEqual({
      transaction_amount: ['sale', 'authonly', 'force', 'debit', 'credit', 'authincrement', 'partialreversal'],
      auth_code: ['force'],
    });
    for (const d of TRANSACTION_FIELDS.filter((f) => f.name !== 'action')) expect(d.requiredFor, d.name).toEqual(required[d.name]);
    // Blank where required is named together with every other bad field in one 422.
    const force = await h.call('POST', '/transactions', { transaction: { action: 'force', ...card, description: 'x'.repeat(65) } });
    expect(force.body.errors).toEqual({
      transaction_amount: [PAY_MSG.AMOUNT_BLANK],
      auth_code: [MSG.BLANK.replace('{attribute}', 'Auth Code')],
      description: ['Description should contain at most 64 characters.'],
    });
    const a = (await post({ action: 'authonly' })).body.transaction;
    expect((await put(a.id, { action: 'authincrement' })).body.errors).toEqual({ transaction_amount: [PAY_MSG.AMOUNT_BLANK] });
  });

  it("account_number's bounds are declared per payment method (card 13-19 digits, bank account 4-17) and the readers use them", async () => {
    const f = TRANSACTION_FIELDS.find((x) => x.name === 'account_number');
    expect([f?.min, f?.max, f?.byMethod]).toEqual([4, 19, { cc: { min: 13, max: 19 }, ach: { min: 4, max: 17 } }]);
    expect((await post({ account_number: '411111111111' })).body.errors.account_number).toEqual([PAY_MSG.CARD_NUMBER_INVALID]);
    const ach = (n: string) => h.call('POST', '/transactions', { transaction: { action: 'debit', account_number: n, routing: '072000326', account_holder_name: 'Pat', transaction_amount: '1.00' } });
    expect((await ach('1'.repeat(18))).body.errors.account_number).toEqual([PAY_MSG.ACH_ACCOUNT_INVALID]);
    expect((await ach('1'.repeat(17))).status).toBe(201);
  });

  it('the README field table is the rendering of TRANSACTION_FIELDS', () => {
    const url = new URL('../../../electron/gateway/payments/README.md', import.meta.url);
    let readme = readFileSync(url, 'utf8');
    if (process.env.UPDATE_FIELD_TABLE === '1') {
      // The generator: rewrite the section between the markers from the declaration.
      readme = readme.replace(/(<!-- field-table:start -->)[\s\S]*?(<!-- field-table:end -->)/, (_m, a: string, b: string) => `${a}\n${renderFieldTable()}\n${b}`);
      writeFileSync(url, readme);
    }
    const start = readme.indexOf('<!-- field-table:start -->');
    const end = readme.indexOf('<!-- field-table:end -->');
    expect(start).toBeGreaterThan(0);
    expect(readme.slice(start + '<!-- field-table:start -->'.length, end).trim()).toBe(renderFieldTable());
  });
});

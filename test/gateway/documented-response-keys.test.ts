/**
 * Every key the v2 interface documents for a transaction answer is present on every answer,
 * null when unset — never missing because the request did not send it.
 *
 * What "documented" means here, as data (key names are facts of the interface):
 * - the interface document's transaction record (`Record fields seen in postbacks`, seed
 *   000_365deaa8ad2d6508, section "Transaction"; `transaction_c1..c3` spelled out);
 * - the keys of the family's documented answers (PayaConnect Endpoints/Transactions and Router
 *   Transactions README examples): the lodging keys, `item`, `timestamp`, `auth`, `code`,
 *   `folio_num`, `bill_payment`, the recurring and installment keys, `transaction_batch_id`.
 * The engine's own list (RECORD_FIELDS, derived from the declarations in transaction-doc.ts and
 * transaction-fields.ts) must hold both; every answer — create, each PUT action, view, list,
 * router transaction, postback data — must carry every key of it.
 * When the interface document itself is at hand (the team's shared folder), its list is read
 * from it and compared with the one written here, so the two cannot drift apart unseen.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../electron/gateway/engine';
import { openDatabase } from '../../electron/gateway/framework/database';
import { TRANSACTION_KEYS_MIGRATION } from '../../electron/gateway/payments/payments-migrations';
import { BASE_FIELDS, FAMILY_RESPONSE_FIELDS, RECORD_FIELDS } from '../../electron/gateway/payments/transaction-doc';
import { RECORD_INPUT_FIELDS } from '../../electron/gateway/payments/transaction-fields';
import { TestEngine } from './helpers/engine-fixture';

/** The interface document's transaction record fields (seed, section "Transaction"). */
const SEED_TRANSACTION_KEYS = `id, payment_method, account_vault_id, recurring_id, first_six, last_four, account_holder_name, transaction_amount, description, transaction_code, avs, batch, order_num, verbiage, transaction_settlement_status, effective_date, routing, return_date, created_ts, modified_ts, transaction_api_id, terms_agree, notification_email_address, notification_email_sent, response_message, auth_amount, auth_code, status_id, type_id, location_id, reason_code_id, contact_id, billing_zip, billing_street, product_transaction_id, tax, customer_ip, customer_id, po_number, avs_enhanced, cvv_response, billing_phone, billing_city, billing_state, clerk_number, tip_amount, created_user_id, modified_user_id, ach_identifier, check_number, settle_date, charge_back_date, void_date, account_type, is_recurring, is_accountvault, transaction_c1, transaction_c2, transaction_c3, additional_amounts, terminal_serial_number, entry_mode_id, terminal_id, quick_invoice_id, ach_sec_code, custom_data, hosted_payment_page_id, trx_source_id, emv_receipt_data`.split(', ');

/** Keys of the family's documented transaction and router transaction answers beyond the seed's list. */
const FAMILY_EXAMPLE_KEYS = [
  'code', 'item', 'timestamp', 'auth', 'folio_num', 'bill_payment', 'recurring_flag', 'recurring_number', 'installment_number', 'installment_total_count',
  'checkin_date', 'checkout_date', 'room_num', 'room_rate', 'advance_deposit', 'no_show', 'transaction_batch_id',
];

const SEED_FILE = '/work/shared/seed/000_365deaa8ad2d6508.txt';

let t: TestEngine;
const card = { account_number: '4111111111111111', exp_date: '1230' };

beforeAll(async () => {
  t = await TestEngine.start({ deviceSecondMs: 4 });
});
afterAll(() => t.close());

/** The documented keys a record lacks. */
function missing(record: Record<string, unknown>): string[] {
  return RECORD_FIELDS.filter((k) => !Object.hasOwn(record, k));
}

describe('the documented keys of a transaction record', () => {
  it('the declarations hold every key the interface and the family document', () => {
    expect(SEED_TRANSACTION_KEYS.filter((k) => !RECORD_FIELDS.includes(k))).toEqual([]);
    expect(FAMILY_EXAMPLE_KEYS.filter((k) => !RECORD_FIELDS.includes(k))).toEqual([]);
    // Derived, not listed by hand: every input the field table keeps is a key of the record.
    expect(RECORD_INPUT_FIELDS.filter((k) => !RECORD_FIELDS.includes(k))).toEqual([]);
  });

  it.skipIf(!existsSync(SEED_FILE))('the list above is the interface document\'s own (read from it when it is at hand)', () => {
    const text = readFileSync(SEED_FILE, 'utf8');
    const sentence = /Record fields seen in postbacks: ([^.]+(?:\.\.[^.]+)*)\. A payment/.exec(text)?.[1] ?? '';
    const keys = sentence.split(', ').flatMap((k) => {
      const name = k.replace(/ \(.*\)$/, '');
      const range = /^(.*_c)1\.\.c3$/.exec(name);
      return range ? [1, 2, 3].map((n) => `${range[1]}${n}`) : [name];
    });
    expect(keys).toEqual(SEED_TRANSACTION_KEYS);
  });

  it('every answer carries every key, null when unset: create, PUT actions, view, list, ACH, router transaction', async () => {
    const answers: Record<string, Record<string, unknown>> = {};
    const post = async (name: string, body: Record<string, unknown>) => {
      const a = await t.post('/transactions', { transaction: body });
      expect(a.status, JSON.stringify(a.body)).toBe(201);
      answers[name] = a.body.transaction;
      return a.body.transaction as Record<string, unknown>;
    };
    const sale = await post('sale', { action: 'sale', ...card, transaction_amount: '10.00' });
    const auth = await post('authonly', { action: 'authonly', ...card, transaction_amount: '4.00' });
    await post('lodging sale', { action: 'sale', ...card, transaction_amount: '20.00', checkin_date: '2030-01-01', checkout_date: '2030-01-03', room_num: '12', room_rate: '10.00' });
    await post('refund', { action: 'refund', previous_transaction_id: sale.id, transaction_amount: '1.00' });
    await post('debit', { action: 'debit', payment_method: 'ach', account_number: '2079951060953', routing: '072000326', account_type: 'checking', account_holder_name: 'Pat', transaction_amount: '3.00' });
    const put = async (name: string, id: unknown, body: Record<string, unknown>) => {
      const a = await t.put(`/transactions/${String(id)}`, { transaction: body });
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      answers[name] = a.body.transaction;
    };
    await put('authcomplete', auth.id, { action: 'authcomplete' });
    const second = await post('second sale', { action: 'sale', ...card, transaction_amount: '7.00' });
    await put('edit', second.id, { action: 'edit', tip_amount: '1.00' });
    await put('void', second.id, { action: 'void' });
    answers.view = (await t.get(`/transactions/${String(sale.id)}`)).body.transaction;
    for (const [i, row] of ((await t.get('/transactions?page_size=50')).body.transactions as Record<string, unknown>[]).entries()) answers[`list ${i}`] = row;
    const demo = ((await t.get('/terminals')).body.terminals as Record<string, unknown>[]).find((x) => x.communication_type === 'mock')!;
    const router = await t.post('/routertransactions', { routertransaction: { action: 'sale', payment_method: 'cc', location_id: t.locationId, terminal_id: demo.id, transaction_amount: '1.00', tip_amount: '0.00' } });
    expect(router.status).toBe(201);
    answers.router = router.body.routertransaction;

    const lacking = Object.fromEntries(Object.entries(answers).map(([name, r]) => [name, missing(r)]).filter(([, m]) => (m as string[]).length > 0));
    expect(lacking).toEqual({});
    // Unset is null: a plain sale has no lodging data, and the family's keys the engine does not model are null.
    for (const k of ['checkin_date', 'checkout_date', 'room_num', 'room_rate', 'advance_deposit', 'no_show', 'subtotal_amount']) expect(answers.sale![k], k).toBeNull();
    for (const k of FAMILY_RESPONSE_FIELDS) expect(answers.view![k], k).toBeNull();
    // Set is set: the lodging sale's own values.
    expect(answers['lodging sale']).toMatchObject({ checkin_date: '2030-01-01', checkout_date: '2030-01-03', room_num: '12', room_rate: '10.00' });
  });

  it('a record stored before the keys were added gets them at the next start, null, its values kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ringup-keys-'));
    try {
      let e = await TestEngine.start({ dataDir });
      const id = (await e.post('/transactions', { transaction: { action: 'sale', ...card, transaction_amount: '2.50', description: 'old' } })).body.transaction.id as string;
      await e.close(false);
      // As an older engine stored it: the base keys only, the migration not yet run (and a
      // whole record, not a lean one: doc_keys NULL, as rows before migration 107 are).
      const db = openDatabase(join(dataDir, DATABASE_FILE));
      const dropped = RECORD_FIELDS.filter((k) => !(BASE_FIELDS as readonly string[]).includes(k));
      db.prepare(`UPDATE transactions SET doc = json_remove(doc, ${dropped.map((k) => `'$.${k}'`).join(', ')}), doc_keys = NULL WHERE id = ?`).run(id);
      db.prepare('DELETE FROM schema_migrations WHERE version = ?').run(TRANSACTION_KEYS_MIGRATION);
      db.close();
      e = await TestEngine.start({ dataDir });
      const r = (await e.get(`/transactions/${id}`)).body.transaction as Record<string, unknown>;
      expect(missing(r)).toEqual([]);
      expect(r).toMatchObject({ transaction_amount: '2.50', description: 'old', checkin_date: null, item: null });
      await e.close(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

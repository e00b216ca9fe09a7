/**
 * A real engine (port 0, real SQLite, no scheduler timer) with its clock pinned at a
 * chosen moment, a contact with a card vault and a bank vault, and helpers to create
 * recurrings and move the location's sandbox clock by whole days.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MovableClock } from '../../../electron/gateway/framework/clock';
import { startEngine, type RunningEngine } from '../../../electron/gateway/engine';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, asserted field by field
export type Answer = { status: number; body: any };

export interface RecurringHarness {
  engine: RunningEngine;
  dir: string;
  clock: MovableClock;
  location: string;
  ccPt: string;
  achPt: string;
  contactId: string;
  cardVault: string;
  bankVault: string;
  call(method: string, path: string, body?: unknown): Promise<Answer>;
  createRecurring(fields: Record<string, unknown>): Promise<Answer>;
  advanceDays(days: number): Promise<Answer>;
  /** Transactions of a recurring (from the transaction list), oldest first. */
  chargesOf(recurringId: string): Promise<{ id: string; created_ts: number; status_id: number; transaction_amount: string; recurring_id: string; is_recurring: boolean; trx_source_id: number }[]>;
  close(): Promise<void>;
}

/** 12:00 in New York (the seeded location's tz) on `date`. */
export function noonNewYork(date: string): number {
  return Math.floor(Date.parse(`${date}T17:00:00Z`) / 1000);
}

export async function startRecurringEngine(startDate: string, opts: { dir?: string; keepDir?: boolean } = {}): Promise<RecurringHarness> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'ringup-recurring-'));
  const clock = new MovableClock();
  clock.set(noonNewYork(startDate));
  const engine = await startEngine({ dataDir: dir, port: 0, clock, schedulerIntervalMs: 0 });
  const c = engine.credentials;
  const origin = c.base_url.replace(/\/v2$/, '');
  const headers = { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key, 'content-type': 'application/json' };
  const { 'content-type': _omit, ...withoutType } = headers;
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(origin + path, { method, headers: body === undefined ? withoutType : headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const location = c.location_id;
  let contactId = '';
  let cardVault = '';
  let bankVault = '';
  if (!opts.dir || (await call('GET', '/v2/contacts')).body.contacts.length === 0) {
    const contact = await call('POST', '/v2/contacts', { contact: { location_id: location, first_name: 'Pat', last_name: 'Doe', email: 'pat@example.com', cell_phone: '3525551234' } });
    if (!contact.body?.contact) throw new Error(`contact not created: ${JSON.stringify(contact)}`);
    contactId = contact.body.contact.id;
    const card = await call('POST', '/v2/accountvaults', { accountvault: { location_id: location, contact_id: contactId, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1239', title: 'Visa' } });
    cardVault = card.body?.accountvault?.id;
    const bank = await call('POST', '/v2/accountvaults', { accountvault: { location_id: location, contact_id: contactId, payment_method: 'ach', account_number: '123456789', routing: '072000326', account_type: 'checking', account_holder_name: 'Pat Doe', is_company: 0 } });
    bankVault = bank.body?.accountvault?.id;
    if (!cardVault || !bankVault) throw new Error(`vaults not created: ${JSON.stringify([card.body, bank.body])}`);
  }
  const ccPt = c.cc_product_transaction_id;
  const achPt = c.ach_product_transaction_id;
  return {
    engine, dir, clock, location, ccPt, achPt, contactId, cardVault, bankVault, call,
    createRecurring: (fields) =>
      call('POST', '/v2/recurrings', { recurring: { location_id: location, account_vault_id: cardVault, product_transaction_id: ccPt, transaction_amount: '10.00', interval: 1, interval_type: 'm', start_date: startDate, ...fields } }),
    advanceDays: (days) => call('POST', '/sandbox/clock/advance', { clock: { location_id: location, seconds: days * 86_400 } }),
    async chargesOf(recurringId) {
      const res = await call('GET', '/v2/transactions?page_size=5000&sort=created_ts');
      return (res.body.transactions as { recurring_id: string }[]).filter((t) => t.recurring_id === recurringId) as never;
    },
    async close() {
      await engine.close();
      if (!opts.keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Calendar date (New York) of a created_ts. */
export function nyDate(ts: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ts * 1000));
}

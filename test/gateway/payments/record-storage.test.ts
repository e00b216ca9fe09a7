/**
 * Transaction records are stored lean (record-storage.ts): a row's doc holds the keys that
 * are set and doc_keys names them; every answer still carries every key, once.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_PLACE_KEYS, initialKeyPositions, RecordStorage, recordKeyPositions } from '../../../electron/gateway/payments/record-storage';
import { emptyDoc, RECORD_FIELDS } from '../../../electron/gateway/payments/transaction-doc';
import { TestEngine } from '../helpers/engine-fixture';

function keyTable(keys: [number, string][] = initialKeyPositions()): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE transaction_record_keys (position INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE)');
  const add = db.prepare('INSERT INTO transaction_record_keys (position, key) VALUES (?, ?)');
  for (const [p, k] of keys) add.run(p, k);
  return db;
}

/** The index of the quote that closes the JSON string opened at `start`. */
function stringEnd(json: string, start: number): number {
  let i = start + 1;
  while (json[i] !== '"') i += json[i] === '\\' ? 2 : 1;
  return i;
}

/** How many times each key occurs at the top level of a record's JSON text (JSON.parse would hide a duplicate: it keeps the last). */
function keyCounts(json: string): Map<string, number> {
  const counts = new Map<string, number>();
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      const end = stringEnd(json, i);
      if (depth === 1 && json[end + 1] === ':') {
        const word = JSON.parse(json.slice(i, end + 1)) as string;
        counts.set(word, (counts.get(word) ?? 0) + 1);
      }
      i = end;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return counts;
}

function expectEveryKeyOnce(json: string): void {
  const counts = keyCounts(json);
  expect(RECORD_FIELDS.filter((k) => counts.get(k) !== 1)).toEqual([]);
}

describe('the lean record form', () => {
  it('keeps the set keys (and the keys SQL updates in place) and gives every other key back as null', () => {
    const storage = new RecordStorage(recordKeyPositions(keyTable()));
    const d = emptyDoc();
    Object.assign(d, { id: 'abc', transaction_amount: '10.00', status_id: 101, is_recurring: false, additional_amounts: [], custom_data: { a: 'quote " and \\ slash' }, description: 'ünïcode ✓' });
    const stored = storage.store(d);
    expect(JSON.parse(stored.doc)).toEqual({
      id: 'abc', transaction_amount: '10.00', status_id: 101, is_recurring: false, additional_amounts: [], custom_data: { a: 'quote " and \\ slash' }, description: 'ünïcode ✓',
      modified_ts: null, modified_user_id: null, settle_date: null, transaction_settlement_status: null, contact_id: null, quick_invoice_id: null,
    });
    const whole = storage.json(stored.doc, stored.keys);
    expectEveryKeyOnce(whole);
    expect(JSON.parse(whole)).toEqual(JSON.parse(JSON.stringify(d)));
    expect(storage.parse(stored.doc, stored.keys)).toEqual(JSON.parse(JSON.stringify(d)));
    // The list's byte form is the same record.
    const bytes = Buffer.concat([Buffer.from(stored.doc.slice(0, -1)), storage.suffixBytes(stored.keys), Buffer.from('}')]).toString();
    expect(bytes).toBe(whole);
    // A row from before migration 107 (doc_keys NULL) is whole as stored.
    expect(storage.json('{"id":"x"}', null)).toBe('{"id":"x"}');
  });

  it('a key added to the record after a row was stored is null in that row; the database keeps each key\'s position', () => {
    // The database knew every key but two: they take the next positions, the others keep theirs.
    const [a, b] = [RECORD_FIELDS[3] as string, RECORD_FIELDS[40] as string];
    const db = keyTable(initialKeyPositions().filter(([, k]) => k !== a && k !== b));
    const before = new Map((db.prepare('SELECT key, position FROM transaction_record_keys').all() as { key: string; position: number }[]).map((r) => [r.key, r.position]));
    const positions = recordKeyPositions(db);
    const last = Math.max(...before.values());
    expect([positions.get(a), positions.get(b)].sort()).toEqual([last + 1, last + 2]);
    for (const [k, p] of before) expect(positions.get(k)).toBe(p);
    expect(recordKeyPositions(db)).toEqual(positions);
    // A mask written when the record had fewer keys is shorter (here the two keys sit in a
    // word of the mask that older rows do not have): what it does not name is null.
    const grown = keyTable([...initialKeyPositions().filter(([, k]) => k !== a && k !== b), [130, a], [131, b]]);
    const storage = new RecordStorage(recordKeyPositions(grown));
    const d = emptyDoc();
    Object.assign(d, { id: 'old', transaction_amount: '1.00' });
    const stored = storage.store(d);
    expect(stored.keys).toHaveLength(5 * 8);
    const older = stored.keys.slice(0, 4 * 8);
    const whole = storage.json(stored.doc, older);
    expectEveryKeyOnce(whole);
    expect(JSON.parse(whole)).toMatchObject({ id: 'old', transaction_amount: '1.00', [a]: null, [b]: null });
  });

  it('SQL in the engine changes a stored doc in place only at keys that are always stored', () => {
    const root = join(__dirname, '../../../electron');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts')) files.push(p);
      }
    };
    walk(root);
    const outside: string[] = [];
    let seen = 0;
    for (const file of files) {
      // The migrations rewrite whole records (doc_keys NULL) only: 107 and 190 say so in their SQL.
      if (file.endsWith('payments-migrations.ts')) continue;
      const text = readFileSync(file, 'utf8');
      for (const call of text.matchAll(/json_(?:set|insert|replace|remove)\(\s*doc\s*,([^;]*?)\)\s*(?:WHERE|,|`|\))/g)) {
        seen++;
        for (const key of (call[1] as string).matchAll(/'\$\.([a-z0-9_]+)'/g)) if (!IN_PLACE_KEYS.has(key[1] as string)) outside.push(`${file}: ${key[1]}`);
      }
    }
    expect(seen).toBeGreaterThan(3);
    expect(outside).toEqual([]);
  });
});

describe('lean records through the engine', () => {
  let e: TestEngine;
  beforeAll(async () => {
    e = await TestEngine.start();
  });
  afterAll(() => e.close());
  const card = { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230' };

  it('a sale is stored without its null keys and answered whole, once per key, by every read', async () => {
    const post = await e.post('/transactions', { transaction: { action: 'sale', ...card, transaction_amount: '10.00' } });
    expect(post.status).toBe(201);
    const id = post.body.transaction.id as string;
    const row = e.engine.ctx.stmt('SELECT doc, doc_keys FROM transactions WHERE id = ?').get(id) as { doc: string; doc_keys: string };
    const nullKeys = Object.entries(JSON.parse(row.doc) as Record<string, unknown>).filter(([, v]) => v === null).map(([k]) => k);
    expect(nullKeys.filter((k) => !IN_PLACE_KEYS.has(k))).toEqual([]);
    // Less than half of the whole record (2.4 KB stored before).
    expect(row.doc.length * 2).toBeLessThan(post.text.length);
    const texts = [post.text, (await e.get(`/transactions/${id}`)).text, (await e.get(`/transactions/${id}?expand=previous_transaction,transaction_batch`)).text];
    for (const text of texts) expectEveryKeyOnce(recordText(text, 'transaction'));
    const list = await e.get(`/transactions?id=${id}`);
    expectEveryKeyOnce(recordText(list.text, 'transactions'));
    expect(list.body.transactions[0]).toEqual(post.body.transaction);
  });

  it('keys changed in place (settle, a contact move) stay single', async () => {
    const sale = (await e.post('/transactions', { transaction: { action: 'sale', ...card, transaction_amount: '4.00' } })).body.transaction;
    const settled = await e.post(`/transactionbatches/${sale.transaction_batch_id as string}/settle`);
    expect(settled.status, settled.text).toBe(200);
    const after = await e.get(`/transactions/${sale.id as string}`);
    expectEveryKeyOnce(recordText(after.text, 'transaction'));
    expect(after.body.transaction).toMatchObject({ transaction_settlement_status: 'settled' });
    expect(after.body.transaction.settle_date).toEqual(expect.any(String));
    // A contact move carries the vault's other transactions along with json_set.
    const first = (await e.post('/contacts', { contact: { location_id: e.locationId, last_name: 'First' } })).body.contact;
    const contact = (await e.post('/contacts', { contact: { location_id: e.locationId, last_name: 'Moved' } })).body.contact;
    const saved = (await e.post('/transactions', { transaction: { action: 'sale', ...card, transaction_amount: '10.00', save_account: 1, contact_id: first.id } })).body.transaction;
    expect(saved.account_vault_id, JSON.stringify(saved)).toEqual(expect.any(String));
    const other = (await e.post('/transactions', { transaction: { action: 'sale', account_vault_id: saved.account_vault_id, transaction_amount: '11.00' } })).body.transaction;
    const moved = await e.put(`/transactions/${saved.id as string}`, { transaction: { action: 'edit', contact_id: contact.id, move_account_vault: 1, move_account_vault_transactions: 1 } });
    expect(moved.status, moved.text).toBe(200);
    const carried = await e.get(`/transactions/${other.id as string}`);
    expectEveryKeyOnce(recordText(carried.text, 'transaction'));
    expect(carried.body.transaction.contact_id).toBe(contact.id);
  });

  it('a row stored whole (before migration 107) is answered as it is', async () => {
    const sale = (await e.post('/transactions', { transaction: { action: 'sale', ...card, transaction_amount: '3.00' } })).body.transaction as Record<string, unknown>;
    e.engine.ctx.stmt('UPDATE transactions SET doc = ?, doc_keys = NULL WHERE id = ?').run(JSON.stringify(sale), sale.id);
    const got = await e.get(`/transactions/${sale.id as string}`);
    expectEveryKeyOnce(recordText(got.text, 'transaction'));
    expect(got.body.transaction).toEqual({ ...sale, _links: got.body.transaction._links });
  });
});

/** The first record's JSON text inside an answer (`{"transaction":{…}}` or `{"transactions":[{…}…]}`). */
function recordText(answer: string, wrapper: string): string {
  const start = answer.indexOf('{', answer.indexOf(`"${wrapper}"`));
  let depth = 0;
  for (let i = start; i < answer.length; i++) {
    if (answer[i] === '"') i = stringEnd(answer, i);
    else if (answer[i] === '{') depth++;
    else if (answer[i] === '}' && --depth === 0) return answer.slice(start, i + 1);
  }
  throw new Error('no record in the answer');
}

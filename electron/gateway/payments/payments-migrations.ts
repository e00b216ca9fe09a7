/**
 * Tables of the payment resources (migration versions 100–199).
 *
 * transactions: the record lives in `doc` (the JSON the API returns, without _links and
 * without its null keys, which `doc_keys` gives back: record-storage.ts), written once per
 * change, so a page of 5000 is string concatenation, not 5000 object serialisations; the columns beside it exist to filter, sort, check rules and index.
 * Amount columns are integer cents. Card numbers are never stored here: first_six,
 * last_four and the brand only. CVV is stored nowhere.
 */
import type { Migration } from '../framework/migrations';
import { RECORD_FIELDS } from './transaction-doc';
import { initialKeyPositions } from './record-storage';

/** Adds every documented key to transaction records stored before it (transaction-doc.ts). */
export const TRANSACTION_KEYS_MIGRATION = 190;

export const PAYMENTS_MIGRATIONS: Migration[] = [
  {
    version: 100,
    module: 'payments',
    name: 'transactions, batches, account vaults, level 3, notification outbox',
    up(db) {
      db.exec(`
        CREATE TABLE transaction_batches (
          id TEXT PRIMARY KEY,
          location_id TEXT NOT NULL,
          product_transaction_id TEXT NOT NULL,
          batch_num INTEGER NOT NULL,
          processing_status_id INTEGER NOT NULL DEFAULT 1,
          is_open INTEGER NOT NULL DEFAULT 1,
          batch_close_ts INTEGER,
          settlement_file_name TEXT,
          settle_attempts INTEGER NOT NULL DEFAULT 0,
          fails_first_settle INTEGER NOT NULL DEFAULT 0,
          created_ts INTEGER NOT NULL,
          modified_ts INTEGER NOT NULL
        );
        CREATE INDEX transaction_batches_pt ON transaction_batches (product_transaction_id, is_open);
        CREATE INDEX transaction_batches_loc ON transaction_batches (location_id, created_ts);

        CREATE TABLE transactions (
          id TEXT PRIMARY KEY,
          location_id TEXT NOT NULL,
          product_transaction_id TEXT,
          transaction_api_id TEXT,
          payment_method TEXT NOT NULL,
          action TEXT NOT NULL,
          type_id INTEGER NOT NULL,
          status_id INTEGER NOT NULL,
          reason_code_id INTEGER NOT NULL,
          amount INTEGER NOT NULL,
          auth_amount INTEGER NOT NULL DEFAULT 0,
          refunded INTEGER NOT NULL DEFAULT 0,
          first_six TEXT,
          last_four TEXT,
          brand TEXT,
          exp_date TEXT,
          account_vault_id TEXT,
          contact_id TEXT,
          previous_transaction_id TEXT,
          batch_id TEXT,
          settled INTEGER NOT NULL DEFAULT 0,
          created_ts INTEGER NOT NULL,
          modified_ts INTEGER NOT NULL,
          doc TEXT NOT NULL
        );
        CREATE UNIQUE INDEX transactions_api_id ON transactions (location_id, transaction_api_id) WHERE transaction_api_id IS NOT NULL;
        CREATE INDEX transactions_loc_created ON transactions (location_id, created_ts);
        CREATE INDEX transactions_last_four ON transactions (last_four, amount); -- replaced in 101
        CREATE INDEX transactions_batch ON transactions (batch_id);
        CREATE INDEX transactions_vault ON transactions (account_vault_id) WHERE account_vault_id IS NOT NULL;
        CREATE INDEX transactions_previous ON transactions (previous_transaction_id) WHERE previous_transaction_id IS NOT NULL;
        CREATE INDEX transactions_ach_pending ON transactions (created_ts) WHERE payment_method = 'ach' AND status_id IN (131, 132, 133);

        CREATE TABLE account_vaults (
          id TEXT PRIMARY KEY,
          location_id TEXT NOT NULL,
          account_vault_api_id TEXT,
          payment_method TEXT NOT NULL,
          title TEXT,
          account_holder_name TEXT,
          first_six TEXT,
          last_four TEXT,
          billing_address TEXT,
          billing_zip TEXT,
          billing_state TEXT,
          billing_city TEXT,
          billing_phone TEXT,
          exp_date TEXT,
          routing TEXT,
          account_type TEXT,
          is_company INTEGER,
          contact_id TEXT,
          customer_id TEXT,
          dl_number TEXT,
          dl_state TEXT,
          ssn4 TEXT,
          dob_year TEXT,
          accountvault_c1 TEXT,
          accountvault_c2 TEXT,
          accountvault_c3 TEXT,
          ach_sec_code TEXT,
          active INTEGER NOT NULL DEFAULT 1,
          previous_transaction_id TEXT,
          account_blob TEXT,
          created_ts INTEGER NOT NULL,
          modified_ts INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX account_vaults_api_id ON account_vaults (location_id, account_vault_api_id) WHERE account_vault_api_id IS NOT NULL;
        CREATE INDEX account_vaults_loc ON account_vaults (location_id, created_ts);
        CREATE INDEX account_vaults_contact ON account_vaults (contact_id);

        CREATE TABLE transaction_level3s (
          id TEXT PRIMARY KEY,
          transaction_id TEXT NOT NULL UNIQUE,
          location_id TEXT NOT NULL,
          level3_data TEXT NOT NULL,
          is_default INTEGER NOT NULL DEFAULT 0,
          created_ts INTEGER NOT NULL,
          modified_ts INTEGER NOT NULL
        );

        CREATE TABLE notification_outbox (
          id TEXT PRIMARY KEY,
          location_id TEXT NOT NULL,
          transaction_id TEXT,
          to_address TEXT NOT NULL,
          subject TEXT NOT NULL,
          body TEXT NOT NULL,
          created_ts INTEGER NOT NULL,
          sent_ts INTEGER
        );
        CREATE INDEX notification_outbox_unsent ON notification_outbox (created_ts) WHERE sent_ts IS NULL;
      `);
    },
  },
  {
    version: 101,
    module: 'payments',
    name: 'last_four lookups ordered by time (counter searches: last four + date range or amount)',
    up(db) {
      // (location_id, last_four, created_ts) serves "last four [+ date range] newest first"
      // without a sort and without depending on ANALYZE statistics; amount is filtered on
      // the few rows of one last four.
      db.exec(`
        DROP INDEX IF EXISTS transactions_last_four;
        CREATE INDEX transactions_loc_last_four ON transactions (location_id, last_four, created_ts);
      `);
    },
  },
  {
    version: 102,
    module: 'payments',
    name: 'transaction changelogs (who changed what, per PUT action)',
    up(db) {
      db.exec(`
        CREATE TABLE transaction_changelogs (
          id TEXT PRIMARY KEY,
          transaction_id TEXT NOT NULL,
          user_id TEXT,
          action TEXT NOT NULL,
          changes TEXT NOT NULL,
          created_ts INTEGER NOT NULL
        );
        CREATE INDEX transaction_changelogs_txn ON transaction_changelogs (transaction_id, created_ts);
      `);
    },
  },
  {
    version: 103,
    module: 'payments',
    name: 'one outbox for every e-mail and SMS (channel, kind, link, the record it concerns)',
    up(db) {
      db.exec(`
        ALTER TABLE notification_outbox ADD COLUMN channel TEXT NOT NULL DEFAULT 'email';
        ALTER TABLE notification_outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'receipt';
        ALTER TABLE notification_outbox ADD COLUMN link TEXT;
        ALTER TABLE notification_outbox ADD COLUMN resource_type TEXT;
        ALTER TABLE notification_outbox ADD COLUMN resource_id TEXT;
        CREATE INDEX notification_outbox_location ON notification_outbox (location_id, created_ts);
      `);
    },
  },
  {
    version: 104,
    module: 'payments',
    name: "what the issuer approved, apart from auth_amount (a tip adjust's tolerance is measured from it)",
    up(db) {
      // auth_amount follows a tip adjust; approved_amount moves only with the issuer's
      // answers (sale, authcomplete, authincrement, partialreversal), so repeated tip edits
      // never compound the 20% tolerance.
      db.exec(`
        ALTER TABLE transactions ADD COLUMN approved_amount INTEGER NOT NULL DEFAULT 0;
        UPDATE transactions SET approved_amount = auth_amount;
      `);
    },
  },
  {
    version: 105,
    module: 'payments',
    name: "the issuer's approved total (original approval + approved increments): the tip tolerance's bound",
    up(db) {
      // approved_amount follows partial reversals and completions, so a tolerance measured
      // from it alone could be chained (tip up, reverse a cent, tip up again …). The bound
      // is this column plus its own 20%; only the issuer's answers (sale, authonly, force,
      // authincrement) raise it, nothing lowers it. A row written before this column has
      // only its approved_amount to go by (the best record of the approval it has).
      db.exec(`
        ALTER TABLE transactions ADD COLUMN issuer_approved INTEGER NOT NULL DEFAULT 0;
        UPDATE transactions SET issuer_approved = approved_amount;
      `);
    },
  },
  {
    version: 106,
    module: 'payments',
    name: 'the request fingerprint of a transaction with a transaction_api_id (a repeat with other parameters is refused)',
    up(db) {
      // An HMAC (request-fingerprint.ts), never card data. NULL on rows made before it:
      // a repeat of those is answered with the original, as it was.
      db.exec('ALTER TABLE transactions ADD COLUMN request_fingerprint TEXT');
    },
  },
  {
    version: 107,
    module: 'payments',
    name: 'transaction records stored without their null keys: doc_keys names the keys a doc holds, by position',
    up(db) {
      // record-storage.ts: a row's doc holds its set keys, doc_keys which ones (NULL: every
      // key, as every row before this one was written; the record's one new key, paylink_id,
      // is added to them, null unless a pay link page had set it). The positions are kept
      // here so that a stored mask keeps its meaning when the record gains keys.
      db.exec(`
        ALTER TABLE transactions ADD COLUMN doc_keys TEXT;
        CREATE TABLE transaction_record_keys (position INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
        UPDATE transactions SET doc = json_insert(doc, '$.paylink_id', NULL);
      `);
      const add = db.prepare('INSERT INTO transaction_record_keys (position, key) VALUES (?, ?)');
      for (const [position, key] of initialKeyPositions()) add.run(position, key);
    },
  },
  // 190: issue 19's every documented key of a transaction record.
  {
    version: TRANSACTION_KEYS_MIGRATION,
    module: 'payments',
    name: 'every documented key on every stored transaction record (null when unset)',
    // Records stored before it carry only the keys that were set; json_insert adds the missing ones
    // as null and leaves every present value as it is.
    up(db) {
      const pairs = RECORD_FIELDS.map((f) => `'$.${f}', NULL`).join(', ');
      // Only whole records (doc_keys NULL): a lean one (migration 107) is given its null keys when read.
      db.exec(`UPDATE transactions SET doc = json_insert(doc, ${pairs}) WHERE doc_keys IS NULL`);
    },
  },
  // 600–609: the notifications/postbacks work (issue 10) on payments tables.
  {
    version: 600,
    module: 'payments',
    name: 'transaction batch changelogs (postback data of a batch carries them)',
    up(db) {
      db.exec(`
        CREATE TABLE transaction_batch_changelogs (
          id TEXT PRIMARY KEY,
          batch_id TEXT NOT NULL,
          user_id TEXT,
          action TEXT NOT NULL,
          changes TEXT NOT NULL,
          created_ts INTEGER NOT NULL
        );
        CREATE INDEX transaction_batch_changelogs_batch ON transaction_batch_changelogs (batch_id, created_ts);
      `);
    },
  },
  {
    version: 601,
    module: 'payments',
    name: 'daily automatic batch close: time per product transaction, last close moment tried per batch',
    up(db) {
      db.exec(`
        ALTER TABLE product_transactions ADD COLUMN batch_close_time TEXT NOT NULL DEFAULT '23:59';
        ALTER TABLE transaction_batches ADD COLUMN auto_close_ts INTEGER;
        CREATE INDEX transaction_batches_open ON transaction_batches (is_open) WHERE is_open = 1;
      `);
    },
  },
];

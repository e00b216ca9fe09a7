/**
 * Migrations of the merchant module (versions 1–99; payments uses 100–199).
 * Never edit a released migration: add the next number.
 */
import type { Migration } from '../framework/migrations';

const M = 'merchant';

const v1: Migration = {
  version: 1,
  module: M,
  name: 'merchant tables',
  up(db) {
    db.exec(`
      CREATE TABLE engine_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE developer_companies (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
      CREATE TABLE branding_domains (id TEXT PRIMARY KEY, url TEXT NOT NULL, title TEXT, created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
      CREATE TABLE locations (
        id TEXT PRIMARY KEY, parent_id TEXT REFERENCES locations(id), name TEXT NOT NULL, tz TEXT,
        branding_domain_url TEXT, branding_domain_id TEXT, aba TEXT, dda TEXT, account_number TEXT,
        address1 TEXT, address2 TEXT, city TEXT, state TEXT, zip_code TEXT, country TEXT,
        office_phone TEXT, office_ext_phone TEXT, fax TEXT, contact_email_trx_receipt_default INTEGER,
        default_ach TEXT, default_cc TEXT, developer_company_id TEXT, email_reply_to TEXT,
        location_api_id TEXT, location_api_key TEXT, ticket_hash_key TEXT,
        location_c1 TEXT, location_c2 TEXT, location_c3 TEXT, receipt_logo TEXT,
        recurring_notification_days_default INTEGER, show_contact_files INTEGER, show_contact_notes INTEGER,
        created_user_id TEXT, created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
      CREATE TABLE users (
        id TEXT PRIMARY KEY, domain_id TEXT, contact_id TEXT, username TEXT NOT NULL UNIQUE, email TEXT,
        user_type_id INTEGER, locale TEXT, status_id INTEGER NOT NULL DEFAULT 1, tz TEXT,
        login_attempts INTEGER NOT NULL DEFAULT 0, current_login_ip TEXT, current_login TEXT, last_login_ts INTEGER,
        requires_new_password TEXT, primary_location_id TEXT, branding_domain_url TEXT, created_user_id TEXT,
        terms_condition_id TEXT, terms_accepted_ts INTEGER, terms_agree_ip TEXT, ui_prefs TEXT,
        user_api_key_hash TEXT, password_hash TEXT, user_hash_key TEXT,
        first_name TEXT, last_name TEXT, address TEXT, city TEXT, state TEXT, zip TEXT, account_number TEXT,
        date_of_birth TEXT, email_trx_receipt INTEGER, company_name TEXT,
        home_phone TEXT, cell_phone TEXT, office_phone TEXT, office_ext_phone TEXT,
        created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
      CREATE TABLE user_locations (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        location_id TEXT NOT NULL REFERENCES locations(id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, location_id));
      CREATE TABLE product_transactions (
        id TEXT PRIMARY KEY, location_id TEXT NOT NULL REFERENCES locations(id), payment_method TEXT NOT NULL,
        processor TEXT, title TEXT, receipt_header TEXT, receipt_footer TEXT,
        receipt_add_account_above_signature INTEGER, receipt_add_recurring_above_signature INTEGER,
        receipt_logo TEXT, receipt_show_contact_name INTEGER, industry_type TEXT, partner TEXT,
        vt_cvv INTEGER, vt_street INTEGER, vt_zip INTEGER, vt_order_num INTEGER, display_avs INTEGER,
        vt_enable INTEGER, vt_enable_tip INTEGER, velocity_settings TEXT, surcharge TEXT,
        default_transaction_type TEXT, vt_require_street INTEGER, vt_require_zip INTEGER,
        vt_enable_sales_tax INTEGER, vt_override_sales_tax_allowed INTEGER, current_batch INTEGER,
        vt_billing_phone INTEGER, vt_clerk_number INTEGER, quick_invoice_allow INTEGER, active INTEGER,
        hosted_payment_page_max_allowed INTEGER, hosted_payment_page_allow INTEGER, auto_decline_cvv INTEGER,
        level3_allow INTEGER, level3_default TEXT, tax_surcharge_config TEXT, processor_data TEXT,
        created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
      CREATE TABLE contacts (
        id TEXT PRIMARY KEY, location_id TEXT NOT NULL REFERENCES locations(id), last_name TEXT NOT NULL,
        first_name TEXT, account_number TEXT, address TEXT, city TEXT, state TEXT, zip TEXT, company_name TEXT,
        contact_api_id TEXT, contact_balance TEXT, contact_c1 TEXT, contact_c2 TEXT, contact_c3 TEXT,
        date_of_birth TEXT, email TEXT, email_trx_receipt INTEGER, header_message TEXT, header_message_type INTEGER,
        home_phone TEXT, cell_phone TEXT, office_phone TEXT, office_ext_phone TEXT, parent_id TEXT,
        created_user_id TEXT, created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
      CREATE TABLE tags (
        id TEXT PRIMARY KEY, title TEXT NOT NULL, location_id TEXT NOT NULL REFERENCES locations(id),
        created_user_id TEXT, created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
      CREATE TABLE terminal_manufacturers (id TEXT PRIMARY KEY, title TEXT NOT NULL);
      CREATE TABLE terminal_applications (
        id TEXT PRIMARY KEY, title TEXT NOT NULL, terminal_manufacturer_id TEXT NOT NULL REFERENCES terminal_manufacturers(id));
      CREATE TABLE terminals (
        id TEXT PRIMARY KEY, active INTEGER NOT NULL DEFAULT 1, location_id TEXT NOT NULL REFERENCES locations(id),
        serial_number TEXT NOT NULL, terminal_number TEXT, title TEXT, mac_address TEXT, local_ip_address TEXT,
        port INTEGER, last_registration_ts INTEGER, terminal_timeouts TEXT, tip_percents TEXT,
        debit INTEGER, emv INTEGER,
        header_line_1 TEXT, header_line_2 TEXT, header_line_3 TEXT, header_line_4 TEXT, header_line_5 TEXT,
        trailer_line_1 TEXT, trailer_line_2 TEXT, trailer_line_3 TEXT, trailer_line_4 TEXT, trailer_line_5 TEXT,
        communication_type TEXT, is_provisioned INTEGER, default_checkin TEXT, default_checkout TEXT,
        default_room_rate TEXT, default_room_number TEXT,
        terminal_application_id TEXT REFERENCES terminal_applications(id),
        terminal_manufacturer_id TEXT REFERENCES terminal_manufacturers(id), terminal_cvm_id INTEGER,
        tip_enable INTEGER, cashback_enable INTEGER, print_enable INTEGER, sig_capture_enable INTEGER,
        created_user_id TEXT, modified_user_id TEXT, created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
      CREATE TABLE scanner_manufacturers (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
      CREATE TABLE scanner_models (
        id INTEGER PRIMARY KEY, title TEXT NOT NULL,
        scanner_manufacturer_id INTEGER NOT NULL REFERENCES scanner_manufacturers(id),
        created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
      CREATE TABLE scanners (
        id TEXT PRIMARY KEY, title TEXT NOT NULL, serial_number TEXT NOT NULL,
        scanner_model_id INTEGER NOT NULL REFERENCES scanner_models(id),
        location_id TEXT NOT NULL REFERENCES locations(id), active INTEGER NOT NULL DEFAULT 1,
        created_user_id TEXT, modified_user_id TEXT, created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
      CREATE TABLE deviceterms (
        id TEXT PRIMARY KEY, location_id TEXT NOT NULL REFERENCES locations(id), terminal_id TEXT NOT NULL,
        require_signature INTEGER NOT NULL, terms_conditions TEXT NOT NULL, device_terms_api_id TEXT,
        reason_code_id INTEGER, signature TEXT, created_user_id TEXT,
        created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
      CREATE TABLE postback_configs (
        id TEXT PRIMARY KEY, location_id TEXT NOT NULL REFERENCES locations(id), resource TEXT NOT NULL,
        product_transaction_id TEXT, url TEXT NOT NULL, on_create INTEGER, on_update INTEGER, on_delete INTEGER,
        is_active INTEGER, format TEXT, number_of_attempts INTEGER, attempt_interval INTEGER, expands TEXT,
        basic_auth_username TEXT, basic_auth_password TEXT, created_user_id TEXT,
        created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
    `);
  },
};

const v2: Migration = {
  version: 2,
  module: M,
  name: 'list and api_id indexes',
  up(db) {
    db.exec(`
      CREATE INDEX locations_parent ON locations(parent_id, location_api_id);
      CREATE INDEX user_locations_location ON user_locations(location_id);
      CREATE INDEX product_transactions_location ON product_transactions(location_id);
      CREATE INDEX contacts_location_created ON contacts(location_id, created_ts);
      CREATE UNIQUE INDEX contacts_api_id ON contacts(location_id, contact_api_id) WHERE contact_api_id IS NOT NULL;
      CREATE INDEX contacts_created ON contacts(created_ts);
      CREATE INDEX tags_location ON tags(location_id, created_ts);
      CREATE INDEX terminals_location ON terminals(location_id, created_ts);
      CREATE INDEX scanners_location ON scanners(location_id, created_ts);
      CREATE INDEX deviceterms_location ON deviceterms(location_id, created_ts);
      CREATE UNIQUE INDEX deviceterms_api_id ON deviceterms(location_id, device_terms_api_id) WHERE device_terms_api_id IS NOT NULL;
      CREATE INDEX deviceterms_created ON deviceterms(created_ts);
      CREATE INDEX postback_configs_location ON postback_configs(location_id, created_ts);
    `);
  },
};

/** Fixed ids of the reference data, so seeds and tests can name them. */
export const REF = {
  PAX: '5f3b1e0a-4c2d-4e8f-9a10-000000000001',
  INGENICO: '5f3b1e0a-4c2d-4e8f-9a10-000000000002',
  PAX_BROADPOS: '5f3b1e0a-4c2d-4e8f-9a10-000000000101',
  INGENICO_TETRA: '5f3b1e0a-4c2d-4e8f-9a10-000000000102',
} as const;

const v3: Migration = {
  version: 3,
  module: M,
  name: 'terminal and scanner reference data',
  up(db) {
    const ts = 1_700_000_000;
    const tm = db.prepare('INSERT INTO terminal_manufacturers (id, title) VALUES (?, ?)');
    tm.run(REF.PAX, 'PAX');
    tm.run(REF.INGENICO, 'Ingenico');
    const ta = db.prepare('INSERT INTO terminal_applications (id, title, terminal_manufacturer_id) VALUES (?, ?, ?)');
    ta.run(REF.PAX_BROADPOS, 'PAX BroadPOS (POSLink)', REF.PAX);
    ta.run(REF.INGENICO_TETRA, 'Ingenico Tetra', REF.INGENICO);
    const sm = db.prepare('INSERT INTO scanner_manufacturers (id, title) VALUES (?, ?)');
    sm.run(1, 'Digital Check');
    sm.run(2, 'Panini');
    sm.run(3, 'Epson');
    const model = db.prepare('INSERT INTO scanner_models (id, title, scanner_manufacturer_id, created_ts, modified_ts) VALUES (?, ?, ?, ?, ?)');
    model.run(1, 'Digital Check CX30', 1, ts, ts);
    model.run(2, 'TellerScan TS240', 1, ts, ts);
    model.run(3, 'Panini mI:Deal', 2, ts, ts);
    model.run(4, 'Epson TM-S1000', 3, ts, ts);
  },
};

const v4: Migration = {
  version: 4,
  module: M,
  name: "product transactions' AVS and partial-authorization settings (the per-request overrides win over them)",
  up(db) {
    db.exec(`
      ALTER TABLE product_transactions ADD COLUMN auto_decline_zip INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE product_transactions ADD COLUMN auto_decline_street INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE product_transactions ADD COLUMN allow_partial_authorization INTEGER NOT NULL DEFAULT 1;
    `);
  },
};

const v5: Migration = {
  version: 5,
  module: M,
  name: "locations' pay_page_url: the public address of their payment pages (engine extension)",
  up(db) {
    db.exec('ALTER TABLE locations ADD COLUMN pay_page_url TEXT;');
  },
};

export const merchantMigrations: Migration[] = [v1, v2, v3, v4, v5];
export const merchantReferenceTables = ['terminal_manufacturers', 'terminal_applications', 'scanner_manufacturers', 'scanner_models'];

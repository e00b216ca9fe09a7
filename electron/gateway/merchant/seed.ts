/**
 * First-start data: a developer company, a parent location, the merchant location
 * "Demo Store" with a cc and an ach product transaction (its default_cc/default_ach;
 * Level 3 allowed on the cc one), one terminal (PAX, BroadPOS; no address, so a counter
 * without a terminal shows none until an installer gives it one; in a sandbox engine it is the
 * built-in mock terminal, communication_type "mock", that router requests reach without an
 * address: router/mock-terminal.ts) and an admin user
 * (user_type_id 250) who is a member of both locations. The ids and the API key are
 * kept in engine_meta (sealed when embedded in the app: framework/engine-meta.ts) so later
 * starts (and reset()) reuse the same credentials.
 */
import type { EngineContext, SeedInfo } from '../framework/context';
import { readMeta, writeMeta } from '../framework/engine-meta';
import { newId, newKeyUuid, newSecret } from '../framework/ids';
import { REF } from './schema-migrations';
import { defaultTimeouts } from './terminal-settings';
import { MOCK_COMMUNICATION_TYPE } from './terminals';
import { ADMIN_USER_TYPE, UI_PREFS_DEFAULTS, setUserApiKey } from './users';

export const SEED_META_KEY = 'seed';
export const DEMO_STORE_NAME = 'Demo Store';

export function loadSeedInfo(ctx: EngineContext): SeedInfo | undefined {
  return readMeta<SeedInfo>(ctx, SEED_META_KEY);
}

export function newSeedInfo(): SeedInfo {
  return {
    developerId: newId(),
    userId: newId(),
    userApiKey: newSecret(16),
    parentLocationId: newId(),
    locationId: newId(),
    ccProductTransactionId: newId(),
    achProductTransactionId: newId(),
    terminalId: newId(),
  };
}

/** Inserts the seed records with the given ids (call inside a transaction). */
export function seedMerchant(ctx: EngineContext, s: SeedInfo): void {
  const now = ctx.clock.now();
  const run = (sql: string, ...params: unknown[]) => ctx.stmt(sql).run(...params);
  run('INSERT INTO developer_companies (id, name, created_ts, modified_ts) VALUES (?, ?, ?, ?)', s.developerId, 'Ringup Developer', now, now);
  const domainId = newId();
  run('INSERT INTO branding_domains (id, url, title, created_ts, modified_ts) VALUES (?, ?, ?, ?, ?)', domainId, 'ringup.localhost', 'Ringup', now, now);
  const loc = `INSERT INTO locations (id, parent_id, name, tz, branding_domain_url, branding_domain_id, developer_company_id,
      location_api_key, ticket_hash_key, address1, city, state, zip_code, country, office_phone,
      contact_email_trx_receipt_default, show_contact_files, show_contact_notes, created_user_id, created_ts, modified_ts)
    VALUES (?, ?, ?, 'America/New_York', 'ringup.localhost', ?, ?, ?, ?, ?, ?, ?, ?, 'USA', ?, 0, 0, 0, ?, ?, ?)`;
  run(loc, s.parentLocationId, null, 'Ringup Merchants', domainId, s.developerId, newKeyUuid(), newKeyUuid(), null, null, null, null, null, s.userId, now, now);
  run(loc, s.locationId, s.parentLocationId, DEMO_STORE_NAME, domainId, s.developerId, newKeyUuid(), newKeyUuid(), '5800 NW 39th AVE', 'Gainesville', 'FL', '32606', '3525550100', s.userId, now, now);

  const pt = `INSERT INTO product_transactions (id, location_id, payment_method, processor, title, receipt_header, receipt_footer,
      receipt_add_account_above_signature, receipt_add_recurring_above_signature, receipt_show_contact_name, industry_type, partner,
      vt_cvv, vt_street, vt_zip, vt_order_num, display_avs, vt_enable, vt_enable_tip, velocity_settings, surcharge,
      default_transaction_type, vt_require_street, vt_require_zip, vt_enable_sales_tax, vt_override_sales_tax_allowed, current_batch,
      vt_billing_phone, vt_clerk_number, quick_invoice_allow, active, hosted_payment_page_max_allowed, hosted_payment_page_allow,
      auto_decline_cvv, level3_allow, level3_default, tax_surcharge_config, processor_data, created_ts, modified_ts)
    VALUES (?, ?, ?, ?, ?, 'Demo Store', 'Thank you!', 1, 1, 1, 'retail', 'ringup', 1, 1, 1, 1, 1, 1, ?, ?, NULL, ?, 0, 0, 0, 0, 1,
      0, 0, 1, 1, 5, 1, 0, ?, NULL, NULL, ?, ?, ?)`;
  const velocity = JSON.stringify({ debit_max_amount: null, debit_daily_limit: null, refund_max_amount: null, refund_daily_limit: null, credit_max_amount: null, credit_daily_limit: null, hold_days: 0 });
  run(pt, s.ccProductTransactionId, s.locationId, 'cc', 'RINGUP-SIM-CC', 'Demo Store Card', 1, velocity, 'sale', 1, null, now, now);
  const achData = JSON.stringify({ terminals: [{ terminal_id: 'ringup-ach-1', sec_code: 'WEB', actions: ['debit', 'refund', 'credit'], required: ['account_holder_name'] }] });
  run(pt, s.achProductTransactionId, s.locationId, 'ach', 'RINGUP-SIM-ACH', 'Demo Store ACH', 0, velocity, 'debit', 0, achData, now, now);
  run('UPDATE locations SET default_cc = ?, default_ach = ? WHERE id = ?', s.ccProductTransactionId, s.achProductTransactionId, s.locationId);

  run(
    `INSERT INTO terminals (id, active, location_id, serial_number, terminal_number, title, local_ip_address, port, terminal_timeouts, tip_percents,
       debit, emv, communication_type, is_provisioned, terminal_application_id, terminal_manufacturer_id, terminal_cvm_id,
       tip_enable, cashback_enable, print_enable, sig_capture_enable, created_user_id, modified_user_id, created_ts, modified_ts)
     VALUES (?, 1, ?, 'SIM0000001', '1', 'Demo Terminal', NULL, 10009, ?, ?, 1, 1, ?, 1, ?, ?, 1, 1, 0, 1, 1, ?, ?, ?, ?)`,
    s.terminalId, s.locationId, JSON.stringify(defaultTimeouts()), JSON.stringify({ percent_1: 15, percent_2: 18, percent_3: 20 }),
    ctx.options.production ? 'tcp' : MOCK_COMMUNICATION_TYPE,
    REF.PAX_BROADPOS, REF.PAX, s.userId, s.userId, now, now,
  );

  run(
    `INSERT INTO users (id, domain_id, username, email, user_type_id, locale, status_id, tz, requires_new_password, primary_location_id,
       branding_domain_url, ui_prefs, user_hash_key, first_name, last_name, email_trx_receipt, created_ts, modified_ts)
     VALUES (?, ?, 'admin', 'admin@ringup.localhost', ?, 'en-US', 1, 'America/New_York', '0', ?, 'ringup.localhost', ?, ?, 'Demo', 'Admin', 0, ?, ?)`,
    s.userId, domainId, ADMIN_USER_TYPE, s.locationId, JSON.stringify({ ...UI_PREFS_DEFAULTS, default_terminal: s.terminalId }), newSecret(16), now, now,
  );
  run('INSERT INTO user_locations (user_id, location_id) VALUES (?, ?), (?, ?)', s.userId, s.parentLocationId, s.userId, s.locationId);
  setUserApiKey(ctx, s.userId, s.userApiKey);
  writeMeta(ctx, SEED_META_KEY, s);
}

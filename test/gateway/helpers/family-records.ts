/**
 * One record of every endpoint family, seeded over real HTTP in a running engine, and
 * which of them each documented operation addresses: what a generated request needs
 * besides its schema (ids it cannot invent). Used by the schema-driven fuzz run
 * (openapi-fuzz.test.ts) and the hostile run (hostile-run.test.ts). The contract run
 * (test/contract/run-portman.mjs) seeds the same shapes for Portman in plain JS.
 */
import { expect } from 'vitest';
import type { ApiAnswer, TestEngine } from './engine-fixture';

export type Records = Record<string, string>;

/** `METHOD::/path` of a documented operation → the name of the record its `{id}` is. */
export const PATH_RECORDS: Record<string, string> = {
  'GET::/v2/users/{id}': 'otherUserId',
  'PUT::/v2/users/{id}': 'otherUserId',
  'DELETE::/v2/users/{id}': 'deleteUserId',
  'POST::/v2/users/{id}/generateuserapikey': 'otherUserId',
  'GET::/v2/locations/{id}': 'locationId',
  'PUT::/v2/locations/{id}': 'spareLocationId',
  'PUT::/v2/locations/{id}/credentials': 'spareLocationId',
  'GET::/v2/locationinfos/{id}': 'locationId',
  'GET::/v2/contacts/{id}': 'contactId',
  'PUT::/v2/contacts/{id}': 'contactId',
  'DELETE::/v2/contacts/{id}': 'deleteContactId',
  'GET::/v2/tags/{id}': 'tagId',
  'PUT::/v2/tags/{id}': 'tagId',
  'DELETE::/v2/tags/{id}': 'deleteTagId',
  'GET::/v2/terminals/{id}': 'terminalId',
  'PUT::/v2/terminals/{id}': 'terminalId',
  'DELETE::/v2/terminals/{id}': 'deleteTerminalId',
  'GET::/v2/terminals/{id}/state': 'termsTerminalId',
  'POST::/v2/terminals/{id}/initialize': 'termsTerminalId',
  'POST::/v2/terminals/{id}/cancel': 'termsTerminalId',
  'GET::/v2/scanners/{id}': 'scannerId',
  'PUT::/v2/scanners/{id}': 'scannerId',
  'DELETE::/v2/scanners/{id}': 'deleteScannerId',
  'GET::/v2/scannermodels/{id}': 'scannerModelId',
  'GET::/v2/deviceterms/{id}': 'deviceTermId',
  'GET::/v2/postbackconfigs/{id}': 'postbackConfigId',
  'PUT::/v2/postbackconfigs/{id}': 'postbackConfigId',
  'DELETE::/v2/postbackconfigs/{id}': 'deletePostbackConfigId',
  'GET::/v2/postbackdeliveries/{id}': 'postbackDeliveryId',
  'POST::/v2/postbackdeliveries/{id}/redeliver': 'postbackDeliveryId',
  'GET::/v2/notifications/{id}': 'notificationId',
  'GET::/v2/transactions/{id}': 'transactionId',
  'PUT::/v2/transactions/{id}': 'transactionId',
  'GET::/v2/accountvaults/{id}': 'vaultId',
  'PUT::/v2/accountvaults/{id}': 'editVaultId',
  'DELETE::/v2/accountvaults/{id}': 'deleteVaultId',
  'GET::/v2/accountvaults/{id}/bininfo': 'vaultId',
  'GET::/v2/transactionbatches/{id}': 'batchId',
  'POST::/v2/transactionbatches/{id}/settle': 'batchId',
  'GET::/v2/transactionlevel3s/{id}': 'level3Id',
  'DELETE::/v2/transactionlevel3s/{id}': 'deleteLevel3Id',
  'PUT::/v2/producttransactions/{id}': 'ccProductTransactionId',
  'GET::/v2/oauthclients/{id}': 'oauthClientId',
  'DELETE::/v2/oauthclients/{id}': 'deleteOauthClientId',
  'GET::/v2/recurrings/{id}': 'recurringId',
  'PUT::/v2/recurrings/{id}': 'recurringId',
  'DELETE::/v2/recurrings/{id}': 'deleteRecurringId',
  'POST::/v2/recurrings/{id}/placeOnHold': 'holdRecurringId',
  'POST::/v2/recurrings/{id}/activate': 'heldRecurringId',
  'POST::/v2/recurrings/{id}/skipPayment': 'skipRecurringId',
  'POST::/v2/recurrings/{id}/deferPayment': 'deferRecurringId',
  'GET::/v2/paylinks/{id}': 'paylinkId',
  'PUT::/v2/paylinks/{id}': 'paylinkId',
  'DELETE::/v2/paylinks/{id}': 'deletePaylinkId',
  'POST::/v2/paylinks/{id}/resend': 'paylinkId',
  'GET::/v2/quickinvoices/{id}': 'quickInvoiceId',
  'PUT::/v2/quickinvoices/{id}': 'quickInvoiceId',
  'DELETE::/v2/quickinvoices/{id}': 'deleteQuickInvoiceId',
  'POST::/v2/quickinvoices/{id}/resend': 'quickInvoiceId',
  'POST::/v2/quickinvoices/{id}/reopen': 'reopenQuickInvoiceId',
  'PUT::/v2/quickinvoices/{id}/addTransaction': 'txnQuickInvoiceId',
  'PUT::/v2/quickinvoices/{id}/removeTransaction': 'txnQuickInvoiceId',
  'GET::/hosted/{route}': 'hostedRoute',
};

/**
 * A request body each JSON operation accepts as it is (the fuzz run changes one field of
 * it at a time): the records it names are the seeded ones. An operation without an entry
 * is sent its schema's required fields, from their examples.
 */
export function baseBodies(r: Records): Record<string, Record<string, unknown>> {
  const loc = r.locationId;
  return {
    // `{{n}}` is replaced by a number unique to each request (usernames and api ids are unique).
    'POST::/v2/users': { user: { username: 'fuzz-{{n}}', email: 'fuzz@example.com', user_type_id: 100, primary_location_id: loc, last_name: 'Fuzz' } },
    'PUT::/v2/users/{id}': { user: { last_name: 'Other' } },
    'POST::/v2/locations': { location: { parent_id: loc, name: 'Fuzz Store', branding_domain_url: 'fuzz.example.com' } },
    'PUT::/v2/locations/{id}': { location: { name: 'Spare Store' } },
    'PUT::/v2/locations/{id}/credentials': { location: { location_api_id: 'spare-{{n}}' } },
    'POST::/v2/contacts': { contact: { location_id: loc, last_name: 'Fuzz' } },
    'PUT::/v2/contacts/{id}': { contact: { last_name: 'Keep' } },
    'POST::/v2/tags': { tag: { location_id: loc, title: 'Fuzz' } },
    'PUT::/v2/tags/{id}': { tag: { title: 'Keep' } },
    'POST::/v2/terminals': {
      terminal: { location_id: loc, serial_number: 'FUZZ-1', terminal_application_id: r.terminalApplicationId, terminal_manufacturer_id: r.terminalManufacturerId },
    },
    'PUT::/v2/terminals/{id}': { terminal: { title: 'Demo Terminal' } },
    'POST::/v2/terminals/{id}/cancel': { terminalcancel: { transaction_api_id: 'nothing-running' } },
    'POST::/v2/scanners': { scanner: { location_id: loc, title: 'Fuzz', serial_number: 'SN-FUZZ', scanner_model_id: Number(r.scannerModelId), active: 0 } },
    'PUT::/v2/scanners/{id}': { scanner: { title: 'Keep' } },
    'POST::/v2/deviceterms': { deviceterm: { location_id: loc, terminal_id: r.termsTerminalId, require_signature: 0, terms_conditions: 'I agree.' } },
    'POST::/v2/postbackconfigs': { postbackconfig: { location_id: loc, resource: 'contact', url: 'http://127.0.0.1:9/hook' } },
    'PUT::/v2/postbackconfigs/{id}': { postbackconfig: { url: 'http://127.0.0.1:9/hook' } },
    'POST::/v2/transactions': { transaction: { action: 'sale', payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '1.00' } },
    'PUT::/v2/transactions/{id}': { transaction: { action: 'edit', description: 'Fuzz' } },
    'POST::/v2/accountvaults': { accountvault: { location_id: loc, payment_method: 'cc', account_number: '5454545454545454', exp_date: '1230' } },
    'PUT::/v2/accountvaults/{id}': { accountvault: { title: 'Keep' } },
    'POST::/v2/transactionlevel3s': {
      transactionlevel3: {
        transaction_id: r.transactionId,
        level3_data: { tax_amount: '1.00', line_items: [{ description: 'Bolts', product_code: 'B-1', unit_code: 'BX', unit_cost: '2.5000', quantity: 4, commodity_code: '3100' }] },
      },
    },
    'PUT::/v2/producttransactions/{id}': { producttransaction: { batch_close_time: '23:59' } },
    'POST::/v2/oauthclients': { oauthclient: { name: 'Fuzz', redirect_uris: ['http://127.0.0.1:8765/cb'] } },
    'POST::/v2/recurrings': {
      recurring: { location_id: loc, product_transaction_id: r.ccProductTransactionId, account_vault_id: r.vaultId, transaction_amount: '10.00', interval: 1, interval_type: 'm', start_date: '2030-01-15' },
    },
    'PUT::/v2/recurrings/{id}': { recurring: { description: 'Keep' } },
    'POST::/v2/paylinks': { paylink: { location_id: loc, delivery_method: 1, email: 'pat@example.com', amount_due: '5.00' } },
    'PUT::/v2/paylinks/{id}': { paylink: { amount_due: '5.00' } },
    'POST::/v2/quickinvoices': { quickinvoice: { location_id: loc, title: 'Fuzz', due_date: '2030-06-10', item_list: { Work: 100 }, email: 'pat@example.com' } },
    'PUT::/v2/quickinvoices/{id}': { quickinvoice: { title: 'Keep' } },
    'PUT::/v2/quickinvoices/{id}/addTransaction': { quickinvoice: { transaction_id: r.addTransactionId } },
    'PUT::/v2/quickinvoices/{id}/removeTransaction': { quickinvoice: { transaction_id: r.removeTransactionId } },
    'POST::/v2/routertransactions': { routertransaction: { location_id: loc, terminal_id: r.routerTerminalId ?? r.termsTerminalId, transaction_amount: '1.00', tip_amount: '0.00' } },
    'POST::/v2/routeraccountvaults': { routeraccountvault: { location_id: loc, terminal_id: r.routerTerminalId ?? r.termsTerminalId, contact_id: r.contactId, payment_method: 'cc', action: 'store' } },
    'POST::/sandbox/clock/advance': { clock: { location_id: loc, seconds: 60 } },
  };
}

/** Query parameters an operation needs to be answered at all (the rest are fuzzed). */
export function baseQueries(r: Records): Record<string, Record<string, string | undefined>> {
  return {
    'GET::/sandbox/clock': { location_id: r.locationId },
    'GET::/paylink': { paylink_id: r.paylinkId },
    'GET::/quickinvoice': { id: r.quickInvoiceId },
    'GET::/quickinvoice/file': { id: r.fileQuickInvoiceId, file_id: r.fileId },
    'GET::/o/authrize': { client_id: r.sandboxClientId, redirect_uri: r.sandboxRedirectUri, response_type: 'code', state: 'fuzz', scope: 'api' },
  };
}

/** Seeds one record of every family (and the states the actions need); returns their ids by name. */
export async function seedFamilyRecords(t: TestEngine): Promise<Records> {
  const api = async (method: string, path: string, body?: unknown): Promise<ApiAnswer['body']> => {
    const a = await t.call(method, path, body);
    expect(a.status, `seed ${method} ${path}: ${a.text.slice(0, 300)}`).toBeLessThan(300);
    return a.body;
  };
  const c = t.engine.credentials;
  const loc = t.locationId;
  const r: Records = { locationId: loc, ccProductTransactionId: c.cc_product_transaction_id, achProductTransactionId: c.ach_product_transaction_id };
  const user = (n: string) => api('POST', '/users', { user: { username: `family-${n}`, email: `${n}@example.com`, user_type_id: 100, primary_location_id: loc, last_name: 'Family' } });
  r.otherUserId = (await user('other')).user.id;
  r.deleteUserId = (await user('gone')).user.id;
  const contact = (n: string) => api('POST', '/contacts', { contact: { location_id: loc, last_name: n } });
  r.contactId = (await contact('Keep')).contact.id;
  // A contact named by its api id elsewhere (contact_api_id); PUTs go to the other one.
  r.contactApiId = 'family-contact-1';
  await api('POST', '/contacts', { contact: { location_id: loc, last_name: 'By Api Id', contact_api_id: r.contactApiId } });
  r.deleteContactId = (await contact('Gone')).contact.id;
  const tag = (n: string) => api('POST', '/tags', { tag: { location_id: loc, title: n } });
  r.tagId = (await tag('Keep')).tag.id;
  r.deleteTagId = (await tag('Gone')).tag.id;
  const seeded = (await api('GET', '/terminals')).terminals[0];
  r.terminalId = seeded.id;
  r.terminalApplicationId = seeded.terminal_application_id;
  r.terminalManufacturerId = seeded.terminal_manufacturer_id;
  const terminal = (serial: string) =>
    api('POST', '/terminals', { terminal: { location_id: loc, serial_number: serial, terminal_application_id: r.terminalApplicationId, terminal_manufacturer_id: r.terminalManufacturerId } });
  r.deleteTerminalId = (await terminal('GONE-1')).terminal.id;
  // No address: device terms are answered by the engine's built-in customer.
  r.termsTerminalId = (await terminal('TERMS-1')).terminal.id;
  r.scannerModelId = String((await api('GET', '/scannermodels')).scannermodels[0].id);
  const scanner = (n: string) => api('POST', '/scanners', { scanner: { location_id: loc, title: n, serial_number: `SN-${n}`, scanner_model_id: Number(r.scannerModelId), active: 0 } });
  r.scannerId = (await scanner('Keep')).scanner.id;
  r.deleteScannerId = (await scanner('Gone')).scanner.id;
  r.deviceTermId = (await api('POST', '/deviceterms', { deviceterm: { location_id: loc, terminal_id: r.termsTerminalId, require_signature: 0, terms_conditions: 'I agree.' } })).deviceterm.id;
  const postback = () => api('POST', '/postbackconfigs', { postbackconfig: { location_id: loc, resource: 'contact', url: 'http://127.0.0.1:9/hook' } });
  r.postbackConfigId = (await postback()).postbackconfig.id;
  r.deletePostbackConfigId = (await postback()).postbackconfig.id;
  const sale = () => api('POST', '/transactions', { transaction: { action: 'sale', account_number: '4005562231212149', exp_date: '1230', cvv: '999', transaction_amount: '10.00' } });
  const t1 = (await sale()).transaction;
  const t2 = (await sale()).transaction;
  r.transactionId = t1.id;
  // Named by api id elsewhere (previous_transaction_api_id, account_vault_api_id).
  r.transactionApiId = 'family-txn-1';
  await api('POST', '/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '4.00', transaction_api_id: r.transactionApiId } });
  r.level3Id = (await api('GET', `/transactions/${t1.id}?expand=transaction_level3`)).transaction.transaction_level3.id;
  r.deleteLevel3Id = (await api('GET', `/transactions/${t2.id}?expand=transaction_level3`)).transaction.transaction_level3.id;
  r.batchId = t1.transaction_batch_id;
  const vault = () => api('POST', '/accountvaults', { accountvault: { location_id: loc, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230' } });
  r.vaultId = (await vault()).accountvault.id;
  r.vaultApiId = 'family-vault-1';
  await api('POST', '/accountvaults', { accountvault: { location_id: loc, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', account_vault_api_id: r.vaultApiId } });
  r.deleteVaultId = (await vault()).accountvault.id;
  // A postback delivery (the contact config hears this contact; its url refuses) and an outbox row (a receipt).
  await contact('Heard');
  r.postbackDeliveryId = (await api('GET', `/postbackdeliveries?postback_config_id=${r.postbackConfigId}`)).postbackdeliveries[0].id;
  await api('PUT', `/transactions/${t2.id}`, { transaction: { action: 'edit', notification_email_address: 'family@example.com' } });
  r.notificationId = (await api('GET', '/notifications')).notifications[0].id;
  const recurring = async (extra: Record<string, unknown> = {}) =>
    (
      await api('POST', '/recurrings', {
        recurring: { location_id: loc, product_transaction_id: r.ccProductTransactionId, account_vault_id: r.vaultId, transaction_amount: '10.00', interval: 1, interval_type: 'm', start_date: '2030-01-15', ...extra },
      })
    ).recurring.id as string;
  r.recurringId = await recurring();
  r.deleteRecurringId = await recurring();
  r.holdRecurringId = await recurring();
  r.heldRecurringId = await recurring();
  await api('POST', `/recurrings/${r.heldRecurringId}/placeOnHold`);
  r.skipRecurringId = await recurring();
  r.deferRecurringId = await recurring({ installment_total_count: 6 });
  const paylink = () => api('POST', '/paylinks', { paylink: { location_id: loc, delivery_method: 1, email: 'pat@example.com', amount_due: '5.00' } });
  r.paylinkId = (await paylink()).paylink.id;
  r.deletePaylinkId = (await paylink()).paylink.id;
  const invoice = (title: string) => api('POST', '/quickinvoices', { quickinvoice: { location_id: loc, title, due_date: '2030-06-10', item_list: { Work: 100 }, email: 'pat@example.com' } });
  r.quickInvoiceId = (await invoice('Keep')).quickinvoice.id;
  r.deleteQuickInvoiceId = (await invoice('Gone')).quickinvoice.id;
  r.reopenQuickInvoiceId = (await invoice('Reopen')).quickinvoice.id;
  await api('PUT', `/quickinvoices/${r.reopenQuickInvoiceId}`, { quickinvoice: { status_id: 0 } });
  r.txnQuickInvoiceId = (await invoice('Txn')).quickinvoice.id;
  const dollar = () => api('POST', '/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '1.00' } });
  r.addTransactionId = (await dollar()).transaction.id;
  r.removeTransactionId = (await dollar()).transaction.id;
  await api('PUT', `/quickinvoices/${r.txnQuickInvoiceId}/addTransaction`, { quickinvoice: { transaction_id: r.removeTransactionId } });
  {
    const form = new FormData();
    for (const [k, v] of Object.entries({ title: 'File', due_date: '2030-06-10', location_id: loc, 'item_list][a': '1' })) form.set(`quickinvoice[${k}]`, v);
    form.set('quickinvoice[files][0]', new Blob(['family file']), 'family.txt');
    const res = await fetch(t.url('/quickinvoices?expand=files'), { method: 'POST', headers: { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key }, body: form });
    expect(res.status).toBe(201);
    const inv = ((await res.json()) as { quickinvoice: { id: string; files: { id: string }[] } }).quickinvoice;
    r.fileQuickInvoiceId = inv.id;
    r.fileId = inv.files[0]?.id ?? '';
  }
  const oauth = c.oauth as { client_id: string; redirect_uri: string };
  r.sandboxClientId = oauth.client_id;
  r.sandboxRedirectUri = oauth.redirect_uri;
  const oauthClient = (n: string) => api('POST', '/oauthclients', { oauthclient: { name: `Family ${n}`, redirect_uris: ['http://127.0.0.1:8765/cb'] } });
  r.oauthClientId = (await oauthClient('Keep')).oauthclient.client_id;
  r.deleteOauthClientId = (await oauthClient('Gone')).oauthclient.client_id;
  r.hostedRoute = 'contacts';
  // Records a PUT may change without disturbing the others' requests: a child location, a vault nothing charges.
  r.spareLocationId = (await api('POST', '/locations', { location: { parent_id: loc, name: 'Spare Store', branding_domain_url: 'spare.example.com' } })).location.id;
  r.editVaultId = (await vault()).accountvault.id;
  r.achVaultId = (
    await api('POST', '/accountvaults', {
      accountvault: { location_id: loc, payment_method: 'ach', account_number: '123456789', routing: '072000326', account_type: 'checking', is_company: 0, account_holder_name: 'Pat Doe' },
    })
  ).accountvault.id;
  r.brandingDomainId = (await api('GET', `/locations/${loc}`)).location.branding_domain_id;
  r.locationApiId = 'store-family-1';
  await api('PUT', `/locations/${loc}/credentials`, { location: { location_api_id: r.locationApiId } });
  return r;
}

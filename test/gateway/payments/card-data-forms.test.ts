/**
 * Card data as integrators send it: swipes (track 1, track 2, both), encrypted reader
 * data, MICR lines for checks, and the api-id alternatives to ids. Over real HTTP.
 */
import { createCipheriv, createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptTrackData, parseMicr, parseTrackData } from '../../../electron/gateway/payments/card-data-forms';
import { encryptCardRead } from '../../../electron/devices/reader-encryption';
import { PAY_MSG } from '../../../electron/gateway/payments/payment-messages';
import { startHarness, VISA, EXP, type Harness } from './engine-harness';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const TRACK1 = `%B${VISA}^DOE/PAT^3012101000000000000000?`;
const TRACK2 = `;${VISA}=30121010000000000000?`;
const post = (extra: Record<string, unknown>) => h.call('POST', '/transactions', { transaction: { action: 'sale', transaction_amount: '10.00', ...extra } });

describe('parsers', () => {
  it('reads track 1, track 2 and both; rejects tracks that disagree', () => {
    expect(parseTrackData(TRACK1)).toEqual({ number: VISA, expDate: '1230', name: 'PAT DOE' });
    expect(parseTrackData(TRACK2)).toEqual({ number: VISA, expDate: '1230', name: null });
    expect(parseTrackData(TRACK1 + TRACK2)).toEqual({ number: VISA, expDate: '1230', name: 'PAT DOE' });
    expect(parseTrackData(TRACK1 + `;4012888888881881=30121010000000000000?`)).toBeNull();
    expect(parseTrackData('garbage')).toBeNull();
    expect(decryptTrackData(Buffer.from(TRACK2).toString('hex'))).toEqual({ card: { number: VISA, expDate: '1230', name: null } });
    expect(decryptTrackData('zz')).toEqual({ error: 'unreadable' });
  });

  it('reads MICR lines and rejects unreadable characters', () => {
    expect(parseMicr('T072000326T123456789U1001')).toEqual({ routing: '072000326', account: '123456789', checkNumber: '1001' });
    expect(parseMicr('U1002U T072000326T 123456789U')).toEqual({ routing: '072000326', account: '123456789', checkNumber: '1002' });
    expect(parseMicr('⑆072000326⑆123456789⑈')).toEqual({ routing: '072000326', account: '123456789', checkNumber: null });
    expect(parseMicr('T07200?326T123456789U1001')).toBeNull();
    expect(parseMicr('123456789')).toBeNull();
  });
});

describe('over HTTP', () => {
  it('a swipe (track_data) charges with entry mode S and keeps no track or number', async () => {
    const r = await post({ track_data: TRACK1 + TRACK2 });
    expect(r.status).toBe(201);
    expect(r.body.transaction).toMatchObject({ status_id: 101, entry_mode_id: 'S', last_four: '1111', exp_date: '1230', account_holder_name: 'PAT DOE', card_present: true });
    expect(r.text).not.toContain(VISA);
    const row = h.engine.db.prepare('SELECT doc FROM transactions WHERE id = ?').get(r.body.transaction.id) as { doc: string };
    expect(row.doc).not.toContain(VISA);
    expect(row.doc).not.toContain('DOE/PAT');
    const bad = await post({ track_data: '%B4111^x?' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.track_data).toEqual([PAY_MSG.TRACK_DATA_INVALID]);
  });

  it('encrypted reader data needs e_format and charges as a swipe', async () => {
    const hex = Buffer.from(TRACK2).toString('hex');
    const noFormat = await post({ e_track_data: hex });
    expect(noFormat.body.errors.e_format).toEqual([PAY_MSG.E_FORMAT_BLANK]);
    const r = await post({ e_track_data: hex, e_format: 'idtech', e_serial_number: 'FFFF9876543210E00001' });
    expect(r.body.transaction).toMatchObject({ status_id: 101, entry_mode_id: 'S', last_four: '1111', e_format: 'idtech', e_serial_number: 'FFFF9876543210E00001' });
    const badFormat = await post({ e_track_data: hex, e_format: 'rot13' });
    expect(badFormat.body.errors.e_format).toEqual(['E Format must be one of: ksn, ksnpin, idtech, magnesafe.']);
  });

  it("e_track_data in the docs' MagneSafe, ksn and ksnpin layouts is read with the sandbox's simulated reader key", async () => {
    // The recipe the engine documents (not DUKPT: the sandbox holds no reader keys): 3DES-CBC, zero IV,
    // key = the first 24 bytes of SHA-256("ringup sandbox reader bdk:" + KSN), the track text NUL-padded.
    const ksn = 'FFFF9876543210E00001';
    const key = createHash('sha256').update(`ringup sandbox reader bdk:${ksn}`).digest().subarray(0, 24);
    const encUnder = (k: Buffer, track: string) => {
      const plain = Buffer.alloc(Math.ceil(track.length / 8) * 8);
      plain.write(track, 'latin1');
      const c = createCipheriv('des-ede3-cbc', k, Buffer.alloc(8));
      c.setAutoPadding(false);
      return Buffer.concat([c.update(plain), c.final()]).toString('hex').toUpperCase();
    };
    const enc = (track: string) => encUnder(key, track);
    const masked = `%*4111********1111^DOE/PAT^*******************************?*;4111********1111=********************?*`;
    const magnesafeUnder = (k: Buffer) => `${masked}|1|${encUnder(k, TRACK1)}|${encUnder(k, TRACK2)}|1|1|1|1|1|${ksn}`;
    const magnesafe = magnesafeUnder(key);
    const m = await post({ e_track_data: magnesafe, e_format: 'magnesafe' });
    expect(m.status, m.text).toBe(201);
    expect(m.body.transaction).toMatchObject({ status_id: 101, entry_mode_id: 'S', last_four: '1111', exp_date: '1230', e_format: 'magnesafe' });
    expect(m.text).not.toContain(VISA);
    const k = await post({ e_track_data: `${masked}|${enc(TRACK1)}|${enc(TRACK2)}`, e_format: 'ksn', e_serial_number: ksn });
    expect(k.body.transaction).toMatchObject({ status_id: 101, last_four: '1111', e_serial_number: ksn });
    // ksn and ksnpin carry no KSN of their own: it comes in e_serial_number.
    const noKsn = await post({ e_track_data: `${masked}|${enc(TRACK1)}|${enc(TRACK2)}`, e_format: 'ksnpin' });
    expect(noKsn.body.errors.e_serial_number).toEqual([PAY_MSG.E_SERIAL_NUMBER_BLANK]);
    // A masked PAN that is not the encrypted one, and a read made under a real reader's key, cannot be read.
    const other = await post({ e_track_data: magnesafe.replace(/4111\*{8}1111/g, '5454********5454'), e_format: 'magnesafe' });
    expect(other.body.errors.e_track_data).toEqual([PAY_MSG.E_TRACK_DATA_INVALID]);
    const foreign = magnesafeUnder(createHash('sha256').update('a real reader key the sandbox does not hold').digest().subarray(0, 24));
    const realReader = await post({ e_track_data: foreign, e_format: 'magnesafe' });
    expect(realReader.status).toBe(422);
    expect(realReader.body.errors.e_track_data).toEqual([PAY_MSG.E_TRACK_DATA_INVALID]);
  });

  it("a payroll check (C21, with its images): the MICR line in track_data on an ACH debit is read like micr_data", async () => {
    const image = (side: string) => Buffer.from(`check 100245, ${side}`).toString('base64');
    const payroll = {
      action: 'debit', payment_method: 'ach', ach_identifier: 'P', transaction_amount: '1250.40', ach_sec_code: 'C21',
      account_holder_name: 'Harbor Books Payroll', check_number: '100245', account_type: 'checking', routing: '263084708',
      image_front: image('front'), image_back: image('back'),
      billing_zip: '33602', billing_street: '401 Water St', billing_city: 'Tampa', billing_state: 'FL', billing_phone: '8135550177',
      track_data: 'T263084708T 60033219870O 100245', dob_year: '1986', ssn4: '4417',
    };
    const r = await post({ ...payroll, account_number: '60033219870' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.transaction).toMatchObject({ status_id: 131, type_id: 50, routing: '263084708', last_four: '9870', check_number: '100245', ach_sec_code: 'C21', ach_identifier: 'P' });
    const lineOnly = await post({ ...payroll, routing: undefined });
    expect(lineOnly.body.transaction).toMatchObject({ status_id: 131, routing: '263084708', last_four: '9870' });
    // A typed account_number that is not the account on the check's line: which one to debit? 422.
    const literal = await post({ ...payroll, account_number: '55501' });
    expect(literal.status).toBe(422);
    expect(literal.body.errors.account_number).toEqual([PAY_MSG.MICR_ACCOUNT_MISMATCH]);
    const otherBank = await post({ ...payroll, routing: '072000326' });
    expect(otherBank.body.errors.routing).toEqual([PAY_MSG.MICR_ROUTING_MISMATCH]);
  });

  it("a terminal's encrypted read (e_format ksn with its KSN) charges with the entry mode and EMV data inside, and keeps no number", async () => {
    const chip = encryptCardRead({ pan: VISA, expDate: '1230', entryMode: 'C', emv: { AID: 'A0000000031010', APPLAB: 'VISA CREDIT', TVR: '0000008000', TSI: 'E800' } }, 'FFFF53494D3030303131');
    expect(chip.eTrackData).not.toContain(Buffer.from(VISA).toString('hex'));
    const r = await post({ e_track_data: chip.eTrackData, e_format: chip.eFormat, e_serial_number: chip.eSerialNumber });
    expect(r.status).toBe(201);
    expect(r.body.transaction).toMatchObject({ status_id: 101, entry_mode_id: 'C', last_four: '1111', exp_date: '1230', card_present: true, e_format: 'ksn' });
    expect(r.body.transaction.emv_receipt_data).toMatchObject({ AID: 'A0000000031010', APPLAB: 'VISA CREDIT', TSI: 'E800' });
    expect(r.text).not.toContain(VISA);
    const tap = encryptCardRead({ pan: VISA, expDate: '1230', entryMode: 'P', emv: { AID: 'A0000000031010', APPLAB: 'VISA CREDIT', TVR: '0000008000', TSI: 'E800' } }, 'FFFF0000000000000002');
    expect((await post({ e_track_data: tap.eTrackData, e_format: 'ksn', e_serial_number: tap.eSerialNumber })).body.transaction.entry_mode_id).toBe('P');
    // Under another KSN (another key) it does not open: refused, nothing charged.
    const wrongKey = await post({ e_track_data: chip.eTrackData, e_format: 'ksn', e_serial_number: 'FFFF0000000000000009' });
    expect(wrongKey.status).toBe(422);
    expect(wrongKey.body.errors.e_track_data).toEqual([PAY_MSG.E_TRACK_DATA_INVALID]);
  });

  it('micr_data debits a check with its routing, account and check number', async () => {
    const r = await post({ action: 'debit', payment_method: 'ach', micr_data: 'T072000326T123456789U1001', account_holder_name: 'Pat Doe', ach_sec_code: 'BOC' });
    expect(r.status).toBe(201);
    expect(r.body.transaction).toMatchObject({ status_id: 131, routing: '072000326', last_four: '6789', check_number: '1001', ach_sec_code: 'BOC' });
    const unreadable = await post({ action: 'debit', payment_method: 'ach', micr_data: 'T0720003!6T123456789U1001', account_holder_name: 'Pat Doe' });
    expect(unreadable.body.errors.micr_data).toEqual([PAY_MSG.MICR_INVALID]);
    const badRouting = await post({ action: 'debit', payment_method: 'ach', micr_data: 'T072000327T123456789U1001', account_holder_name: 'Pat Doe' });
    expect(badRouting.body.errors.routing).toEqual([PAY_MSG.ROUTING_INVALID]);
  });

  it('previous_transaction_api_id refunds and charges like previous_transaction_id', async () => {
    const s = (await post({ account_number: VISA, exp_date: EXP, transaction_api_id: 'prev-api-1' })).body.transaction;
    const refund = await h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_api_id: 'prev-api-1', transaction_amount: '4.00' } });
    expect(refund.status).toBe(201);
    expect(refund.body.transaction).toMatchObject({ status_id: 111, previous_transaction_id: s.id, transaction_amount: '4.00' });
    const again = await post({ previous_transaction_api_id: 'prev-api-1', transaction_amount: '3.00' });
    expect(again.body.transaction).toMatchObject({ status_id: 101, last_four: '1111' });
    const unknown = await post({ previous_transaction_api_id: 'nope' });
    expect(unknown.body.errors.previous_transaction_api_id).toEqual([PAY_MSG.PREVIOUS_API_ID_INVALID]);
  });

  it('account_vault_api_id charges a vault, and save_account_title names the vault made while charging', async () => {
    const loc = h.engine.credentials.location_id;
    const v = await h.call('POST', '/accountvaults', { accountvault: { location_id: loc, payment_method: 'cc', account_number: VISA, exp_date: EXP, account_vault_api_id: 'vault-api-1' } });
    expect(v.status).toBe(201);
    const r = await post({ account_vault_api_id: 'vault-api-1' });
    expect(r.body.transaction).toMatchObject({ status_id: 101, account_vault_id: v.body.accountvault.id, is_accountvault: true });
    const saved = await post({ account_number: VISA, exp_date: EXP, save_account: 1, save_account_title: 'Blue Visa' });
    expect(saved.body.transaction.save_account_title).toBe('Blue Visa');
    const vault = await h.call('GET', `/accountvaults/${saved.body.transaction.account_vault_id}`);
    expect(vault.body.accountvault.title).toBe('Blue Visa');
  });

  it("location_api_id picks the location (a second location's api id lands there); unknown or disagreeing with location_id is 422", async () => {
    const { locationId: store, parentLocationId: hq } = h.engine.seed;
    expect((await h.call('PUT', `/locations/${store}`, { location: { location_api_id: 'store-location-api-id-000001' } })).status).toBe(200);
    expect((await h.call('PUT', `/locations/${hq}`, { location: { location_api_id: 'hq-location-api-id-0000001' } })).status).toBe(200);
    // Give the second location a card account of its own (product transactions have no endpoint).
    const pt = h.engine.db.prepare("SELECT * FROM product_transactions WHERE location_id = ? AND payment_method = 'cc'").get(store) as Record<string, unknown>;
    const copy = { ...pt, id: 'hq-cc-product-transaction-0001', location_id: hq };
    h.engine.db.prepare(`INSERT INTO product_transactions (${Object.keys(copy).join(', ')}) VALUES (${Object.keys(copy).map(() => '?').join(', ')})`).run(...Object.values(copy));
    // (Location defaults are cached for 10 s, so the new account is named: what is tested is where the api id points.)
    const atHq = await post({ account_number: VISA, exp_date: EXP, location_api_id: 'hq-location-api-id-0000001', product_transaction_id: 'hq-cc-product-transaction-0001' });
    expect(atHq.status, atHq.text).toBe(201);
    expect(atHq.body.transaction).toMatchObject({ location_id: hq, product_transaction_id: 'hq-cc-product-transaction-0001', status_id: 101 });
    // The store's api id with the second location's account: the account is not the store's.
    const mixed = await post({ account_number: VISA, exp_date: EXP, location_api_id: 'store-location-api-id-000001', product_transaction_id: 'hq-cc-product-transaction-0001' });
    expect(mixed.body.errors.product_transaction_id).toEqual([PAY_MSG.PRODUCT_TRANSACTION_INVALID]);
    const atStore = await post({ account_number: VISA, exp_date: EXP, location_api_id: 'store-location-api-id-000001' });
    expect(atStore.body.transaction.location_id).toBe(store);
    const unknown = await post({ account_number: VISA, exp_date: EXP, location_api_id: 'no-such-location' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.location_api_id).toEqual([PAY_MSG.LOCATION_API_ID_INVALID]);
    const both = await post({ account_number: VISA, exp_date: EXP, location_api_id: 'hq-location-api-id-0000001', location_id: store });
    expect(both.status).toBe(422);
    expect(both.body.errors.location_api_id).toEqual([PAY_MSG.LOCATION_API_ID_INVALID]);
  });
});

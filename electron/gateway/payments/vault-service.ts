/**
 * Account vaults (`/v2/accountvaults`): cc and ach tokens. The full account number is
 * encrypted (AES-256-GCM, vault-crypto.ts) into `account_blob` and never returned; the
 * record shows first_six/last_four. Variants: direct (account data) and from a previous
 * transaction; the ticket variant needs the hosted form, which this engine lacks (422).
 * Deleting a vault a recurring uses answers 422. expiring_in_months and has_recurring
 * are computed when read.
 *
 * Simplification: a vault made from a previous transaction has no stored number (the
 * transaction never kept one); it charges through the simulated processor like any other.
 */
import type { RecordEventType } from '../framework/record-events';
import type { FastifyRequest } from 'fastify';
import type { BodyWriteInput } from '../framework/resource';
import { CARD_BRAND_ACCOUNT_TYPE, detectCardBrand } from '../../../shared/payments/card-brand';
import { luhnValid } from '../../../shared/payments/luhn';
import { abaRoutingValid, achAccountValid } from '../../../shared/payments/aba-routing';
import { firstSix, lastFour } from '../../../shared/payments/masking';
import type { AuthInfo, EngineContext } from '../framework/context';
import { ApiError, MSG, fmt } from '../framework/errors';
import { binInfo, type BinInfo } from './bin-info';
import { brandFromStored, type AccountData, type VaultRow } from './card-source';
import type { GroupCommitWriter } from './group-commit-writer';
import { accountDigits, present } from './input-fields';
import type { MerchantLookups } from './merchant-lookups';
import { PAY_MSG } from './payment-messages';
import type { VaultCrypto } from './vault-crypto';

/** The optional text fields stored as sent (the field table's `text` fields that are not ids or names). */
const TEXT = ['title', 'billing_address', 'billing_city', 'billing_phone', 'billing_state', 'billing_zip', 'customer_id', 'dl_number', 'dl_state', 'dob_year', 'ssn4', 'accountvault_c1', 'accountvault_c2', 'accountvault_c3'] as const;

export class VaultService {
  constructor(
    private readonly ctx: EngineContext,
    private readonly writer: GroupCommitWriter,
    private readonly lookups: MerchantLookups,
    private readonly crypto: VaultCrypto,
  ) {}

  /**
   * Whether the vault's account number opens with this engine's key (a charge sends it to
   * the processor). A vault made under another key (a replacement register whose keys
   * were not restored) does not; one that stores no number (made from a transaction) does.
   */
  opens(vaultId: string): boolean {
    const row = this.ctx.stmt('SELECT account_blob FROM account_vaults WHERE id = ?').get(vaultId) as { account_blob: string | null } | undefined;
    if (!row?.account_blob) return true;
    try {
      this.crypto.decrypt(row.account_blob, vaultId);
      return true;
    } catch {
      return false;
    }
  }

  visibleRow(id: string, auth: AuthInfo): VaultRow | undefined {
    const r = this.ctx.stmt('SELECT * FROM account_vaults WHERE id = ?').get(id) as VaultRow | undefined;
    return r && auth.locationSet.has(r.location_id) ? r : undefined;
  }

  byApiId(locationId: string, apiId: string): VaultRow | undefined {
    return this.ctx.stmt('SELECT * FROM account_vaults WHERE location_id = ? AND account_vault_api_id = ?').get(locationId, apiId) as VaultRow | undefined;
  }

  /** The vault as every answer gives it: the declaration's record (account-vault-resource.ts). */
  serialize(row: VaultRow, expand: readonly string[] = []): Record<string, unknown> {
    const r = row as unknown as Record<string, unknown>;
    const out = this.ctx.serialize(this.ctx.resource('accountvault'), r, undefined);
    // Without a caller (a postback snapshot, another record's expand) the expands are added here.
    if (expand.includes('contact')) out.contact = row.contact_id ? this.contactRecord(row.contact_id) : null;
    return out;
  }

  hasRecurring(vaultId: string): boolean {
    return this.lookups.vaultHasRecurring(vaultId);
  }

  contactRecord(id: string): unknown {
    try {
      const def = this.ctx.resource('contact');
      const row = this.ctx.getById(def, id);
      return row ? this.ctx.serialize(def, row, undefined) : null;
    } catch {
      return this.lookups.contact(id) ?? null;
    }
  }

  /** Creates the vault row for `save_account` (inside the transaction's write). */
  insertFromAccount(a: AccountData, locationId: string, contactId: string | null, fields: Record<string, string | null>, now: number): string {
    const id = this.ctx.newId();
    const blob = a.accountNumber ? this.crypto.encrypt(a.accountNumber, id) : null;
    this.ctx
      .stmt(`INSERT INTO account_vaults (id, location_id, payment_method, account_holder_name, first_six, last_four, billing_address, billing_zip,
          billing_city, billing_state, billing_phone, exp_date, routing, account_type, contact_id, ach_sec_code, account_blob, title, created_ts, modified_ts)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(id, locationId, a.paymentMethod, a.accountHolderName, a.firstSix, a.lastFour, fields.billing_street?.slice(0, 32) ?? null,
        fields.billing_zip ?? null, fields.billing_city?.slice(0, 36) ?? null, fields.billing_state?.slice(0, 2) ?? null,
        fields.billing_phone?.slice(0, 10) ?? null, a.expDate, a.routing, a.accountType, contactId, a.achSecCode, blob, fields.title ?? null, now, now);
    this.announce('CREATE', this.ctx.stmt('SELECT * FROM account_vaults WHERE id = ?').get(id) as VaultRow);
    return id;
  }

  /**
   * The resource's create hook (account-vault-resource.ts): every declared field was read
   * by the one validator (type, bounds, the payment method that takes it) into `input.errs`,
   * so one 422 names them all with this check's.
   */
  async create(req: FastifyRequest, input: BodyWriteInput): Promise<Record<string, unknown>> {
    const auth = req.auth;
    const { body: b, values: f, errs } = input;
    const method = b.payment_method === 'cc' || b.payment_method === 'ach' ? b.payment_method : undefined;
    if (!present(b.location_id)) errs.add('location_id', MSG.BLANK);
    if (!present(b.payment_method)) errs.add('payment_method', MSG.BLANK);
    errs.throwIfAny();
    const locationId = f.location_id as string;
    if (!auth.locationSet.has(locationId)) throw new ApiError(422, { location_id: [PAY_MSG.LOCATION_INVALID] });
    if (present(b.ticket)) throw new ApiError(422, { ticket: [PAY_MSG.VAULT_TICKET_UNSUPPORTED] });

    const v: Record<string, unknown> = { payment_method: method };
    for (const k of TEXT) v[k] = f[k] ?? null;
    if (present(f.dl_number) !== present(f.dl_state)) errs.add(present(f.dl_number) ? 'dl_state' : 'dl_number', MSG.BLANK);
    const apiId = (f.account_vault_api_id as string | undefined) ?? null;
    let contactId: string | null = null;
    if (present(f.contact_id) || present(f.contact_api_id)) {
      const c = present(f.contact_id) ? this.lookups.contact(f.contact_id as string) : this.lookups.contactByApiId(locationId, f.contact_api_id as string);
      if (!c || c.location_id !== locationId) errs.add(present(f.contact_id) ? 'contact_id' : 'contact_api_id', present(f.contact_id) ? PAY_MSG.CONTACT_INVALID : MSG.INVALID);
      else contactId = c.id;
    }
    let holder = (f.account_holder_name as string | undefined) ?? null;
    let number: string | null = null;

    if (present(f.previous_transaction_id)) {
      const t = this.ctx.stmt('SELECT * FROM transactions WHERE id = ?').get(f.previous_transaction_id) as Record<string, unknown> | undefined;
      if (!t || t.location_id !== locationId || !auth.locationSet.has(String(t.location_id))) throw new ApiError(422, { previous_transaction_id: [PAY_MSG.PREVIOUS_INVALID] });
      if (t.payment_method !== method) throw new ApiError(422, { payment_method: [fmt(PAY_MSG.VAULT_FROM_PREVIOUS_METHOD, { method: String(t.payment_method) })] });
      const d = JSON.parse(String(t.doc)) as Record<string, unknown>;
      Object.assign(v, {
        first_six: t.first_six, last_four: t.last_four, exp_date: t.exp_date, routing: d.routing ?? null, account_type: d.account_type ?? null,
        ach_sec_code: d.ach_sec_code ?? null, previous_transaction_id: t.id,
      });
      holder = holder ?? ((d.account_holder_name as string | null) ?? null);
      v.billing_zip = v.billing_zip ?? d.billing_zip ?? null;
      contactId = contactId ?? ((t.contact_id as string | null) ?? null);
    } else {
      number = accountDigits(b.account_number);
      if (!present(b.account_number)) errs.add('account_number', PAY_MSG.VAULT_NUMBER_BLANK);
      else if (method === 'cc') {
        if (!number || number.length < 13 || number.length > 19) errs.add('account_number', PAY_MSG.VAULT_CARD_LENGTH);
        else if (!luhnValid(number)) errs.add('account_number', PAY_MSG.CARD_NUMBER_INVALID);
        if (!present(b.exp_date)) errs.add('exp_date', PAY_MSG.EXP_DATE_BLANK);
        if (number && luhnValid(number)) {
          v.first_six = firstSix(number);
          v.last_four = lastFour(number);
          v.account_type = CARD_BRAND_ACCOUNT_TYPE[detectCardBrand(number)];
        }
        v.exp_date = f.exp_date ?? null;
      } else {
        if (!number || !achAccountValid(number)) errs.add('account_number', PAY_MSG.ACH_ACCOUNT_INVALID);
        const routing = (f.routing as string | undefined) ?? null;
        if (!present(b.routing)) errs.add('routing', PAY_MSG.ROUTING_BLANK);
        else if (routing !== null && !abaRoutingValid(routing)) errs.add('routing', PAY_MSG.ROUTING_INVALID);
        if (!present(b.account_type)) errs.add('account_type', MSG.BLANK);
        if (!present(b.is_company)) errs.add('is_company', PAY_MSG.VAULT_IS_COMPANY_BLANK);
        if (!holder) errs.add('account_holder_name', PAY_MSG.ACCOUNT_HOLDER_BLANK);
        if (number) {
          v.first_six = null;
          v.last_four = lastFour(number);
        }
        Object.assign(v, { routing, account_type: f.account_type ?? null, is_company: f.is_company ? 1 : 0, ach_sec_code: (f.ach_sec_code as string | undefined) ?? 'WEB' });
      }
    }
    errs.throwIfAny();
    v.account_holder_name = holder;
    const now = this.ctx.clock.now();
    const id = this.ctx.newId();
    const blob = number ? this.crypto.encrypt(number, id) : null;
    const row = await this.writer.submit(() => {
      if (apiId !== null && this.byApiId(locationId, apiId)) {
        throw new ApiError(422, { account_vault_api_id: [fmt(MSG.TAKEN, { attribute: 'Account Vault Api Id', value: apiId })] });
      }
      const cols = ['id', 'location_id', 'account_vault_api_id', 'contact_id', 'account_blob', 'created_ts', 'modified_ts', ...Object.keys(v)];
      const vals = [id, locationId, apiId, contactId, blob, now, now, ...Object.values(v).map((x) => (x === undefined ? null : x))];
      this.ctx.stmt(`INSERT INTO account_vaults (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...vals);
      const created = this.ctx.stmt('SELECT * FROM account_vaults WHERE id = ?').get(id) as VaultRow;
      this.announce('CREATE', created);
      return created;
    });
    return this.serialize(row);
  }

  /** The resource's update hook: `row` is the vault the caller may see, `input` its body read by the one validator for the vault's payment method. */
  async update(row: VaultRow, input: BodyWriteInput): Promise<Record<string, unknown>> {
    const { values: f, errs } = input;
    const set: Record<string, unknown> = {};
    for (const [k, value] of Object.entries(f)) {
      if (k === 'active') set.active = value === null ? 1 : value ? 1 : 0; // emptied: back to its default, active
      else if (k === 'contact_id' && value !== null) {
        const c = this.lookups.contact(value as string);
        if (!c || c.location_id !== row.location_id) errs.add(k, PAY_MSG.CONTACT_INVALID);
        else set.contact_id = c.id;
      } else if (k === 'ach_sec_code') set.ach_sec_code = value ?? 'WEB';
      else set[k] = value;
    }
    errs.throwIfAny();
    const now = this.ctx.clock.now();
    const updated = await this.writer.submit(() => {
      const cols = Object.keys(set);
      this.ctx.stmt(`UPDATE account_vaults SET ${[...cols.map((c) => `${c} = ?`), 'modified_ts = ?'].join(', ')} WHERE id = ?`).run(...Object.values(set), now, row.id);
      const after = this.ctx.stmt('SELECT * FROM account_vaults WHERE id = ?').get(row.id) as VaultRow;
      this.announce('UPDATE', after);
      return after;
    });
    return this.serialize(updated);
  }

  /** Announces a vault write for postbacks (inside the write; see record-events.ts). */
  /** Moves a vault to a contact (a transaction's edit with move_account_vault); call inside a write job. */
  setContact(vaultId: string, contactId: string, now: number): void {
    this.ctx.stmt('UPDATE account_vaults SET contact_id = ?, modified_ts = ? WHERE id = ?').run(contactId, now, vaultId);
    this.announce('UPDATE', this.ctx.stmt('SELECT * FROM account_vaults WHERE id = ?').get(vaultId) as VaultRow);
  }

  private announce(type: RecordEventType, row: VaultRow): void {
    this.ctx.recordEvent({ resource: 'accountvault', type, locationId: row.location_id, recordId: row.id, snapshot: (expands) => this.serialize(row, [...expands]) });
  }

  /** BIN information of a card vault the caller may see (422 for a bank account). */
  bininfo(row: Pick<VaultRow, 'payment_method' | 'first_six' | 'account_type'>): BinInfo {
    if (row.payment_method !== 'cc' || !row.first_six) throw new ApiError(422, { id: [PAY_MSG.BININFO_ACH] });
    return binInfo(row.first_six, brandFromStored(row.first_six, row.account_type));
  }
}

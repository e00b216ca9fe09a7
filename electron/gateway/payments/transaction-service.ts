/**
 * Transactions: every POST action (sale, authonly, avsonly, force, refund, debit,
 * credit) and PUT action (void, authcomplete, authincrement, partialreversal, edit).
 *
 * Flow of a PUT (`act`), one pipeline for every action: validate (the field table, for
 * the action) → permission (declared on the route, checked before the handler; rules on
 * the committed record judged again in the write) → idempotency (transaction_api_id) →
 * processor (the action's `process`) → one group-commit job running the action's own
 * step (actions/<action>.ts) between the common prologue and the write of the record,
 * its changelog and its postback event.
 *
 * Flow of a POST: validate → idempotency (in-flight map, then the unique index on
 * (location_id, transaction_api_id)) → resolve the account → simulated processor →
 * one group-commit job that re-checks the rules against the database, writes the
 * transaction, the batch, the vault (save_account), default Level 3 data and the
 * receipt e-mail, atomically → answer only after the COMMIT (so every 2xx is durable).
 *
 * Rules and readings the interface leaves open (also in the README):
 * - transaction_amount is the total charged, tip included; tip_amount is the part of it
 *   that is tip, so a tip adjust moves transaction_amount by the tip difference.
 * - A repeated transaction_api_id in the same location returns the original record
 *   (201, same body) when it is the same request (request-fingerprint.ts: amounts, card,
 *   payment method, action); with other parameters it is 422 under transaction_api_id.
 *   Nothing is charged again either way.
 * - Declines are stored (status 301) and answered with 201: approval is status_id.
 * - save_account vaults the card only when the transaction is approved.
 * - Money counts as approved: auth_amount is what the transaction collects. Refunds (of an
 *   approved sale/force/completed auth (101) or an ACH debit (131–134)) never sum above
 *   it; the check and the counter update run in one write job, so parallel refunds hold.
 * - partialreversal's transaction_amount is the final amount; a tip edit never raises an
 *   authorization's auth_amount, nor a partial approval's; authincrement asks the issuer.
 * - Every field of the table (transaction-fields.ts) is validated for its action, and the
 *   record fields are stored and returned as sent.
 * - ACH voids are possible while the transaction is still 131 (pending origination).
 */
import type { FastifyRequest } from 'fastify';
import { isExpDateCurrent } from '../../../shared/payments/exp-date';
import { formatMoney, parseMoney, parseMoneyInput } from '../../../shared/payments/money';
import type { AuthInfo, EngineContext } from '../framework/context';
import { ApiError, ErrorCollector, MSG, fmt } from '../framework/errors';
import { resolvePathRecord } from '../framework/records';
import { isCommercialBin } from './bin-info';
import type { BatchService } from './batch-service';
import { brandFromStored, fromVault, readCvv, readSecCode, sentHolder, typedAccount, type AccountData, type VaultRow } from './card-source';
import type { GroupCommitWriter } from './group-commit-writer';
import type { RecordEventType } from '../framework/record-events';
import { decryptTrackData, parseMicr, parseTrackData, type EncryptedFormat, type SwipedCard } from './card-data-forms';
import { accountDigits, digitsText, flag, present, type Body } from './input-fields';
import type { MerchantLookups, ProductTransaction } from './merchant-lookups';
import { PAY_MSG } from './payment-messages';
import { achStatusAt, STATUS, ACH_SCHEDULE_SECONDS } from './processor-simulator';
import type { ReceiptOutbox } from './receipt-outbox';
import type { RequestFingerprints } from './request-fingerprint';
import { defaultLevel3Data } from './level3-defaults';
import { diffDocs, recordChange } from './transaction-changelog';
import { emptyDoc, RECORD_FIELD_SET, type TransactionDoc } from './transaction-doc';
import type { RecordStorage, StoredRecord } from './record-storage';
import type { FieldValues } from '../framework/validate';
import type { BodyActionInput } from '../framework/resource';
import { checkAmountParts } from './amount-parts';
import type { PutActionDeps, PutActionInput, PutActionState } from './actions/put-action';
import { PUT_ACTION_STEPS } from './actions/put-actions';
import { POST_ACTION_STEPS } from './actions/post-actions';
import { isRefundable } from './actions/refund';
import type { TransactionRow } from './transaction-row';
import { FIELD_BY_NAME, POST_ACTIONS, PUT_ACTIONS, readTableFields, storedValue, TIP_LOWERING_NEEDS, type PostAction, type PutAction } from './transaction-fields';

import { checkTransactionShape, mergeErrors } from './transaction-shape';
import type { VaultService } from './vault-service';

export { POST_ACTIONS, PUT_ACTIONS };

export type { TransactionRow } from './transaction-row';

/** A card read by a terminal: masked data only (no number, no CVV) plus card-present fields. */
export interface PresentedCard {
  account: AccountData;
  doc: Record<string, unknown>;
}

/**
 * A transaction another engine module starts (a recurring run, a pay link or invoice page):
 * `doc` adds record fields that override the defaults (recurring_id, is_recurring,
 * trx_source_id, paylink_id, quick_invoice_id …), and `withinCommit` runs inside the same
 * write job, right after the record's INSERT (so it can read the new row), in the job's own
 * savepoint: the module's bookkeeping commits or rolls back with the transaction, and
 * throwing there writes nothing (a recurring run already claimed, a link already paid).
 */
export interface TransactionOrigin {
  doc?: Record<string, unknown>;
  withinCommit?(ctx: EngineContext, txn: { id: string; statusId: number; approved: boolean; authAmountCents: number; doc: Record<string, unknown> }): void;
}

export interface TxnResult {
  status: number;
  /** The whole record's JSON. */
  doc: string;
  id: string;
  /** `doc` without its closing brace, when the write made it (docWithLinks). */
  open?: string;
}

export class TransactionService {
  /** In-flight POSTs by location + transaction_api_id: parallel duplicates (same fingerprint) share one result. */
  private readonly inFlight = new Map<string, { result: Promise<TxnResult>; fingerprint: string }>();
  private readonly defaultLocation = new Map<string, string | undefined>();
  /** Locations that have at least one transaction (a superset is harmless): keeps list scoping an equality. */
  readonly locationsWithTransactions = new Set<string>();
  /** Transactions per location, counted once at start and kept up to date by inserts (rows are never deleted, except by reset()). */
  private readonly counts = new Map<string, number>();

  /** Adds the named expands to a transaction document (set by the payments module; used by postback snapshots). */
  expandDoc: (d: Record<string, unknown>, row: { id: string }, names: string[]) => void = () => {};

  constructor(
    private readonly ctx: EngineContext,
    private readonly writer: GroupCommitWriter,
    private readonly lookups: MerchantLookups,
    private readonly batches: BatchService,
    private readonly vaults: VaultService,
    private readonly outbox: ReceiptOutbox,
    private readonly fingerprints: RequestFingerprints,
    /** How records are stored (lean) and read back whole. */
    readonly storage: RecordStorage,
  ) {
    this.reloadLocations();
  }

  countOf(locationId: string): number {
    let n = this.counts.get(locationId);
    if (n === undefined) {
      n = (this.ctx.stmt('SELECT COUNT(*) AS n FROM transactions WHERE location_id = ?').get(locationId) as { n: number }).n;
      this.counts.set(locationId, n);
    }
    return n;
  }

  reloadLocations(): void {
    this.counts.clear();
    this.locationsWithTransactions.clear();
    // Skip-scan over the (location_id, created_ts) index: one step per distinct location.
    let loc = this.ctx.stmt('SELECT MIN(location_id) AS l FROM transactions').get() as { l: string | null };
    while (loc.l !== null) {
      this.locationsWithTransactions.add(loc.l);
      loc = this.ctx.stmt('SELECT MIN(location_id) AS l FROM transactions WHERE location_id > ?').get(loc.l) as { l: string | null };
    }
  }

  // ---------------------------------------------------------------- reads

  getRow(id: string): TransactionRow | undefined {
    if (typeof id !== 'string' || id.length > 64) return undefined;
    return this.ctx.stmt('SELECT * FROM transactions WHERE id = ?').get(id) as TransactionRow | undefined;
  }

  /** A stored row's whole record as JSON (every key; record-storage.ts). */
  recordJson(row: Pick<TransactionRow, 'doc' | 'doc_keys'>): string {
    return this.storage.json(row.doc, row.doc_keys);
  }

  /** A record in its stored (lean) form, and its whole JSON with and without the closing brace (docWithLinks). */
  private storeRecord(d: Record<string, unknown>): { stored: StoredRecord; open: string; doc: string } {
    const stored = this.storage.store(d);
    const open = this.storage.open(stored.doc, stored.keys);
    return { stored, open, doc: `${open}}` };
  }

  /** A stored row's whole record. */
  record(row: Pick<TransactionRow, 'doc' | 'doc_keys'>): TransactionDoc {
    return this.storage.parse(row.doc, row.doc_keys) as TransactionDoc;
  }

  /** Announces a transaction write for postbacks (inside the write; see record-events.ts). */
  private announce(type: RecordEventType, id: string, locationId: string, productTransactionId: string | null, doc: string, actsOn?: string | null): void {
    this.ctx.recordEvent({
      resource: 'transaction',
      type,
      locationId,
      productTransactionId,
      recordId: id,
      ...(actsOn !== undefined ? { actsOn } : {}),
      snapshot: (expands) => {
        const d = JSON.parse(doc) as Record<string, unknown>;
        if (expands.length > 0) this.expandDoc(d, { id }, [...expands]);
        d._links = { self: { href: `${this.ctx.origin}/v2/transactions/${id}` } };
        return d;
      },
    });
  }

  visibleRow(id: string, auth: AuthInfo): TransactionRow | undefined {
    const r = this.getRow(id);
    return r && auth.locationSet.has(r.location_id) ? r : undefined;
  }

  byApiId(locationId: string, apiId: string): TransactionRow | undefined {
    return this.ctx.stmt('SELECT * FROM transactions WHERE location_id = ? AND transaction_api_id = ?').get(locationId, apiId) as TransactionRow | undefined;
  }

  /**
   * Moves ACH transactions along 131 → 132 → 133 → 134 by the engine clock. Called before
   * reads; writes only when something is due (the partial index makes the check cheap).
   */
  sweepAch(): void {
    const now = this.ctx.clock.now();
    const due = this.ctx
      .stmt(`SELECT 1 FROM transactions WHERE payment_method = 'ach' AND status_id IN (131, 132, 133) AND created_ts <= ? LIMIT 1`)
      .get(now - ACH_SCHEDULE_SECONDS.originating);
    if (!due) return;
    const rows = this.ctx
      .stmt(`SELECT id, status_id, created_ts FROM transactions WHERE payment_method = 'ach' AND status_id IN (131, 132, 133) AND created_ts <= ?`)
      .all(now - ACH_SCHEDULE_SECONDS.originating) as { id: string; status_id: number; created_ts: number }[];
    const date = new Date(now * 1000).toISOString().slice(0, 10);
    // CAST: a bound JS number reaches SQLite as REAL, which json_set would write as 134.0.
    const upd = this.ctx.stmt(`UPDATE transactions SET status_id = ?, settled = ?, modified_ts = ?,
        doc = json_set(doc, '$.status_id', CAST(? AS INTEGER), '$.modified_ts', CAST(? AS INTEGER), '$.settle_date', ?, '$.transaction_settlement_status', ?)
      WHERE id = ?`);
    this.ctx.db.transaction(() => {
      for (const r of rows) {
        const next = achStatusAt(r.created_ts, now);
        if (next === r.status_id) continue;
        const settled = next === STATUS.achSettled;
        upd.run(next, settled ? 1 : 0, now, next, now, settled ? date : null, settled ? 'settled' : null, r.id);
        const after = this.getRow(r.id) as TransactionRow;
        this.announce('UPDATE', after.id, after.location_id, after.product_transaction_id, this.recordJson(after));
      }
    })();
  }

  // ---------------------------------------------------------------- POST

  /**
   * A POST transaction from an unwrapped body (router transactions, pay pages, recurring
   * runs). `presented`: the card was read by a terminal (router transactions): its masked
   * data stands in for account_number, and `doc` adds the card-present fields
   * (entry_mode_id, emv_receipt_data, terminal_id …) to the record.
   */
  async createFrom(auth: AuthInfo, body: Body, presented?: PresentedCard, origin?: TransactionOrigin): Promise<TxnResult> {
    const action = (present(body.action) ? body.action : 'sale') as PostAction;
    if (!(POST_ACTIONS as readonly unknown[]).includes(action)) {
      throw new ApiError(422, { action: [fmt(PAY_MSG.ACTION_INVALID, { actions: POST_ACTIONS.join(', ') })] });
    }
    const errs = new ErrorCollector();
    const values = readTableFields(body, action, errs);
    return this.createRead(auth, { action, body, values, errs }, presented, origin);
  }

  /**
   * The POST pipeline from a body the one validator has read (`POST /v2/transactions`, the
   * declared resource's route, hands it here; createFrom reads its own): the table's errors
   * are in `input.errs`, not thrown yet, so one 422 names them with the location's and the
   * account's.
   */
  async createRead(auth: AuthInfo, input: BodyActionInput, presented?: PresentedCard, origin?: TransactionOrigin): Promise<TxnResult> {
    const { body, errs } = input;
    const action = input.action as PostAction;
    const f = input.values;
    // Every field's own checks (the table: type, bounds, action, required, read by the
    // validator) and the location together, so one 422 names every bad field.
    const typed = checkTransactionShape(body, action, f, errs);
    const methodHint = action === 'debit' || action === 'credit' ? 'ach' : body.payment_method === 'ach' ? 'ach' : 'cc';
    let resolved: ReturnType<TransactionService['resolveLocation']> | undefined;
    // An id the table already refused (too long …) is not looked up as well.
    if (!['location_id', 'location_api_id', 'product_transaction_id'].some((k) => errs.has(k))) {
      try {
        resolved = this.resolveLocation(body, auth, methodHint);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 422)) throw err;
        mergeErrors(errs, err.errors);
      }
    }
    errs.throwIfAny();
    const { locationId, pt } = resolved!;
    // A string by now (the table checked it above).
    const apiId = present(body.transaction_api_id) ? (body.transaction_api_id as string) : null;

    if (apiId !== null) {
      const key = `${locationId}\0${apiId}`;
      const fingerprint = this.fingerprints.of(action, body, presented?.account);
      const running = this.inFlight.get(key);
      if (running) {
        if (running.fingerprint !== fingerprint) throw apiIdReused(apiId);
        return running.result;
      }
      const existing = this.byApiId(locationId, apiId);
      if (existing) return sameRequestOrRefuse(existing, fingerprint, apiId, this.recordJson(existing));
      const p = this.createNew(body, f, typed, auth, action, locationId, pt, { apiId, fingerprint }, presented, origin);
      this.inFlight.set(key, { result: p, fingerprint });
      try {
        return await p;
      } finally {
        this.inFlight.delete(key);
      }
    }
    return this.createNew(body, f, typed, auth, action, locationId, pt, null, presented, origin);
  }

  private resolveLocation(body: Body, auth: AuthInfo, method: 'cc' | 'ach'): { locationId: string; pt: ProductTransaction | undefined } {
    let locationId: string | undefined;
    if (present(body.location_id)) {
      locationId = String(body.location_id);
      if (!auth.locationSet.has(locationId)) throw new ApiError(422, { location_id: [PAY_MSG.LOCATION_INVALID] });
    }
    // location_api_id stands in for location_id: one of the caller's locations, and the same one when both are sent.
    if (present(body.location_api_id)) {
      const byApiId = this.lookups.locationByApiId(String(body.location_api_id), auth.locationSet);
      if (byApiId === undefined || (locationId !== undefined && byApiId !== locationId)) throw new ApiError(422, { location_api_id: [PAY_MSG.LOCATION_API_ID_INVALID] });
      locationId = byApiId;
    }
    let pt: ProductTransaction | undefined;
    if (present(body.product_transaction_id)) {
      pt = this.lookups.productTransaction(String(body.product_transaction_id));
      if (!pt || !auth.locationSet.has(pt.location_id) || (locationId !== undefined && pt.location_id !== locationId)) {
        throw new ApiError(422, { product_transaction_id: [PAY_MSG.PRODUCT_TRANSACTION_INVALID] });
      }
      locationId = pt.location_id;
    }
    if (locationId === undefined) {
      locationId = this.defaultLocationFor(auth, method);
      if (locationId === undefined) throw new ApiError(422, { location_id: [PAY_MSG.LOCATION_BLANK] });
    }
    return { locationId, pt };
  }

  /** Without location_id: the caller's only location, else its first one with a default product transaction. */
  private defaultLocationFor(auth: AuthInfo, method: 'cc' | 'ach'): string | undefined {
    const key = `${auth.userId}\0${auth.locationsJson}\0${method}`;
    if (this.defaultLocation.has(key)) return this.defaultLocation.get(key);
    let found: string | undefined;
    if (auth.locationIds.length === 1) found = auth.locationIds[0];
    else found = auth.locationIds.find((l) => this.lookups.defaultProductTransactionId(l, method) !== undefined);
    this.defaultLocation.set(key, found);
    return found;
  }

  private async createNew(body: Body, f: FieldValues, typed: AccountData | undefined, auth: AuthInfo, action: PostAction, locationId: string, ptIn: ProductTransaction | undefined, idem: { apiId: string; fingerprint: string } | null, presented?: PresentedCard, origin?: TransactionOrigin): Promise<TxnResult> {
    const apiId = idem?.apiId ?? null;
    // What differs between the POST actions (actions/<action>.ts); the rest is this pipeline.
    const step = POST_ACTION_STEPS[action];
    // `f`: every field of the table, accepted by this action, typed and bounded (read once, before the location).
    const errs = new ErrorCollector();
    const now = this.ctx.clock.now();
    let previous: TransactionRow | undefined;
    if (present(body.previous_transaction_id)) {
      previous = this.visibleRow(String(body.previous_transaction_id), auth);
      if (!previous || previous.location_id !== locationId) throw new ApiError(422, { previous_transaction_id: [PAY_MSG.PREVIOUS_INVALID] });
    } else if (present(body.previous_transaction_api_id)) {
      previous = this.byApiId(locationId, String(body.previous_transaction_api_id));
      if (!previous) throw new ApiError(422, { previous_transaction_api_id: [PAY_MSG.PREVIOUS_API_ID_INVALID] });
    }

    // --- the account
    let account: AccountData | undefined;
    let vault: VaultRow | undefined;
    let swiped = false;
    /** A card read by a reader (track or encrypted data): its entry mode and EMV data when the data carries them. */
    let read: SwipedCard | null = null;
    let micrCheckNumber: string | null = null;
    const explicitMethod = f.payment_method as 'cc' | 'ach' | undefined;
    // A check's MICR line: micr_data, or track_data on an ACH transaction (the docs' Payroll
    // example; TestData's POP and C21 terminals read the check so). It is the account: typed
    // account_number / routing beside it must be the line's own.
    const achAction = explicitMethod === 'ach' || action === 'debit' || action === 'credit';
    const micrField = present(body.micr_data) ? 'micr_data' : achAction && present(body.track_data) ? 'track_data' : null;
    if (presented) {
      account = presented.account;
    } else if (present(body.account_vault_id) || present(body.account_vault_api_id)) {
      vault = present(body.account_vault_id)
        ? this.vaults.visibleRow(String(body.account_vault_id), auth)
        : this.vaults.byApiId(locationId, String(body.account_vault_api_id));
      if (!vault || vault.location_id !== locationId) throw new ApiError(422, { account_vault_id: [PAY_MSG.VAULT_INVALID] });
      if (!this.vaults.opens(vault.id)) throw new ApiError(422, { account_vault_id: [PAY_MSG.VAULT_KEY_MISMATCH] });
      account = fromVault(vault, body, errs);
    } else if (micrField !== null) {
      const check = parseMicr(String(body[micrField]));
      if (!check) errs.add(micrField, PAY_MSG.MICR_INVALID);
      else {
        if (present(body.account_number) && accountDigits(body.account_number) !== check.account) errs.add('account_number', PAY_MSG.MICR_ACCOUNT_MISMATCH);
        if (present(body.routing) && digitsText(body.routing) !== check.routing) errs.add('routing', PAY_MSG.MICR_ROUTING_MISMATCH);
        account = typedAccount({ ...body, account_number: check.account, routing: check.routing }, 'ach', errs);
        micrCheckNumber = check.checkNumber;
      }
    } else if (present(body.account_number)) {
      // Read (and checked) once, with the shape of the body (transaction-shape.ts).
      account = typed;
    } else if (present(body.track_data) || present(body.e_track_data)) {
      let card: SwipedCard | null = null;
      if (present(body.track_data)) {
        card = parseTrackData(String(body.track_data));
        if (!card) errs.add('track_data', PAY_MSG.TRACK_DATA_INVALID);
      } else {
        if (!present(body.e_format)) errs.add('e_format', PAY_MSG.E_FORMAT_BLANK);
        const read = decryptTrackData(String(body.e_track_data), (f.e_format as EncryptedFormat | undefined) ?? 'idtech', (f.e_serial_number as string | undefined) ?? null);
        if ('card' in read) card = read.card;
        else if (read.error === 'ksn_missing') errs.add('e_serial_number', PAY_MSG.E_SERIAL_NUMBER_BLANK);
        else errs.add('e_track_data', PAY_MSG.E_TRACK_DATA_INVALID);
      }
      if (card) {
        account = typedAccount({ ...body, account_number: card.number, exp_date: card.expDate, account_holder_name: body.account_holder_name ?? card.name }, 'cc', errs);
        swiped = true;
        read = card;
      }
    } else if (previous) {
      account = accountFromPrevious(previous, body, errs);
    } else if (action !== 'refund') {
      errs.add('account_number', PAY_MSG.ACCOUNT_DATA_BLANK);
    } else {
      errs.add('previous_transaction_id', PAY_MSG.ACCOUNT_DATA_BLANK);
    }
    errs.throwIfAny();
    if (!account) throw new ApiError(422, { account_number: [PAY_MSG.ACCOUNT_DATA_BLANK] });
    const method = account.paymentMethod;
    if (explicitMethod !== undefined && explicitMethod !== method) {
      throw new ApiError(422, { payment_method: [fmt(PAY_MSG.VAULT_METHOD, { method })] });
    }
    if (!step.methods.includes(method)) throw new ApiError(422, { action: [fmt(PAY_MSG.PAYMENT_METHOD_MISMATCH, { action, method })] });

    // --- product transaction
    let pt = ptIn;
    if (!pt) {
      const ptId = this.lookups.defaultProductTransactionId(locationId, method);
      pt = ptId ? this.lookups.productTransaction(ptId) : undefined;
      if (!pt) throw new ApiError(422, { product_transaction_id: [PAY_MSG.PRODUCT_TRANSACTION_MISSING] });
    } else if (pt.payment_method !== method) {
      throw new ApiError(422, { product_transaction_id: [fmt(PAY_MSG.PRODUCT_TRANSACTION_METHOD, { method: pt.payment_method })] });
    }

    // --- amounts and plain fields
    let amount = (f.transaction_amount as number | undefined) ?? null;
    const tax = (f.tax as number | undefined) ?? null;
    if (amount === null && !errs.has('transaction_amount')) {
      amount = step.defaultAmount?.(previous) ?? null;
      if (amount === null) errs.add('transaction_amount', PAY_MSG.AMOUNT_BLANK);
    }
    if (amount !== null && amount <= 0 && !step.zeroAmount) errs.add('transaction_amount', PAY_MSG.AMOUNT_ZERO);
    if (amount !== null) checkAmountParts(f, amount, errs);
    checkStay(f, errs);
    const fields: Record<string, string | null> = {};
    for (const k of ['billing_street', 'billing_zip', 'billing_city', 'billing_state', 'billing_phone']) fields[k] = (f[k] as string | undefined) ?? null;
    const email = (f.notification_email_address as string | undefined) ?? null;
    let authCode: string | null = step.authCodeOf?.(f) ?? null;
    let contactId: string | null = null;
    let contactEmail: string | null = null;
    if (present(body.contact_id) || present(body.contact_api_id)) {
      const c = present(body.contact_id) ? this.lookups.contact(String(body.contact_id)) : this.lookups.contactByApiId(locationId, String(body.contact_api_id));
      if (!c || c.location_id !== locationId) errs.add(present(body.contact_id) ? 'contact_id' : 'contact_api_id', present(body.contact_id) ? PAY_MSG.CONTACT_INVALID : MSG.INVALID);
      else {
        contactId = c.id;
        if (c.email && (c.email_trx_receipt || this.lookups.locationReceiptDefault(locationId))) contactEmail = c.email;
      }
    } else if (vault?.contact_id) {
      contactId = vault.contact_id;
    }
    let refundOf: TransactionRow | undefined;
    if (step.refunds && previous) refundOf = previous;
    step.check?.(previous, errs);
    errs.throwIfAny();
    const amountCents = amount ?? 0;

    // --- the processor: the action's own stage (actions/<action>.ts)
    const outcome = step.process({
      paymentMethod: method,
      amountCents,
      brand: account.brand ?? undefined,
      cvv: account.cvv,
      billingStreet: fields.billing_street ?? vault?.billing_address ?? null,
      billingZip: fields.billing_zip ?? vault?.billing_zip ?? null,
      expired: method === 'cc' && action !== 'refund' && account.expDate !== null && !isExpDateCurrent(account.expDate, new Date(now * 1000)),
      // Per-request overrides win over the product transaction's settings.
      autoDeclineCvv: (f.auto_decline_cvv_override as boolean | undefined) ?? pt.auto_decline_cvv,
      autoDeclineZip: (f.auto_decline_zip_override as boolean | undefined) ?? pt.auto_decline_zip,
      autoDeclineStreet: (f.auto_decline_street_override as boolean | undefined) ?? pt.auto_decline_street,
      allowPartial: (f.allow_partial_authorization_override as boolean | undefined) ?? pt.allow_partial_authorization,
    });
    if (outcome.delayMs > 0) await this.ctx.clock.sleep(outcome.delayMs);
    if (outcome.approved && step.issuesAuthCode && method === 'cc') authCode = newAuthCode();

    // --- the record
    const id = this.ctx.newId();
    const d = emptyDoc();
    d.id = id;
    d.action = action;
    d.payment_method = method;
    d.account_vault_id = account.vaultId;
    d.first_six = account.firstSix;
    d.last_four = account.lastFour;
    d.account_holder_name = account.accountHolderName;
    d.transaction_amount = formatMoney(amountCents);
    d.auth_amount = formatMoney(outcome.authAmountCents);
    d.avs = outcome.avs;
    d.verbiage = outcome.verbiage;
    d.response_message = outcome.verbiage;
    d.auth_code = authCode;
    d.status_id = outcome.statusId;
    d.type_id = outcome.typeId;
    d.reason_code_id = outcome.reasonCodeId;
    d.cvv_response = outcome.cvvResponse;
    d.location_id = locationId;
    d.product_transaction_id = pt.id;
    d.transaction_api_id = apiId;
    d.contact_id = contactId;
    for (const [k, v] of Object.entries(f)) if (FIELD_BY_NAME.get(k)?.storage === 'record') d[k] = storedValue(k, v);
    if (d.check_number == null && micrCheckNumber !== null) d.check_number = micrCheckNumber;
    if (fields.billing_zip === null && vault?.billing_zip) d.billing_zip = vault.billing_zip;
    if (fields.billing_street === null && vault?.billing_address) d.billing_street = vault.billing_address;
    d.routing = account.routing;
    d.account_type = account.accountType;
    d.ach_sec_code = account.achSecCode;
    d.exp_date = account.expDate;
    // A refund made by reference to a sale (no card in front of the clerk) keeps the sale's entry
    // mode: nothing was keyed, and the receipt and the batch's by-entry totals name how the card
    // was taken (a chip sale's refund says chip).
    const refundedEntry = refundOf && !swiped && !presented ? (JSON.parse(this.recordJson(refundOf)) as { entry_mode_id?: unknown }).entry_mode_id : undefined;
    d.entry_mode_id = method === 'cc' ? (swiped ? (read?.entryMode ?? 'S') : typeof refundedEntry === 'string' ? refundedEntry : 'K') : null;
    if (d.card_present == null && swiped) d.card_present = true;
    if (read?.emv) d.emv_receipt_data = read.emv;
    // A card read at the terminal brings its own entry mode, card_present and EMV data.
    if (presented) Object.assign(d, recordKeysOnly(presented.doc));
    d.is_recurring = false;
    d.is_accountvault = account.vaultId !== null;
    d.notification_email_address = email;
    d.notification_email_sent = false;
    if (d.additional_amounts === null) d.additional_amounts = [];
    d.trx_source_id = 12;
    if (origin?.doc) Object.assign(d, recordKeysOnly(origin.doc));
    d.previous_transaction_id = previous?.id ?? null;
    d.effective_date = method === 'ach' ? ((f.effective_date as string | undefined) ?? new Date(now * 1000).toISOString().slice(0, 10)) : null;
    d.created_ts = now;
    d.modified_ts = now;
    d.created_user_id = auth.userId;
    d.modified_user_id = auth.userId;
    if (outcome.approved) d.transaction_settlement_status = method === 'cc' ? 'unsettled' : 'pending';

    const saveAccount = flag(body.save_account) && outcome.approved && account.accountNumber !== null && step.keepsAccount;
    const joinsBatch = method === 'cc' && outcome.approved && (outcome.statusId === STATUS.approved || outcome.statusId === STATUS.refunded);
    const commercialL3 = method === 'cc' && outcome.approved && pt.level3_allow && (account.brand === 'visa' || account.brand === 'mastercard') && isCommercialBin(account.firstSix) && step.keepsAccount;
    const receiptTo = email ?? contactEmail;
    const ptId = pt.id;
    const brand = account.brand;
    const acct = account;

    let inserted = false;
    const result = await this.writer.submit((): TxnResult => {
      if (idem !== null) {
        const dup = this.byApiId(locationId, idem.apiId);
        if (dup) return sameRequestOrRefuse(dup, idem.fingerprint, idem.apiId, this.recordJson(dup));
      }
      if (refundOf) {
        const orig = this.getRow(refundOf.id) as TransactionRow;
        const remaining = orig.auth_amount - orig.refunded;
        if (!isRefundable(orig)) throw new ApiError(422, { previous_transaction_id: [PAY_MSG.REFUND_NOT_REFUNDABLE] });
        if (amountCents > remaining) throw new ApiError(422, { transaction_amount: [fmt(PAY_MSG.REFUND_EXCEEDS, { remaining: formatMoney(remaining) })] });
        this.ctx.stmt('UPDATE transactions SET refunded = refunded + ? WHERE id = ?').run(amountCents, orig.id);
      }
      let batchId: string | null = null;
      if (joinsBatch) {
        const b = this.batches.openBatchFor(ptId, locationId);
        batchId = b.id;
        d.batch = String(b.batchNum);
        d.transaction_batch_id = b.id;
        if (outcome.failsFirstSettle) this.batches.markFailsFirstSettle(b.id);
      }
      if (saveAccount) {
        const v = this.vaults.insertFromAccount(acct, locationId, contactId, { ...fields, title: (f.save_account_title as string | undefined) ?? null }, now);
        d.account_vault_id = v;
        d.is_accountvault = true;
      }
      if (receiptTo) {
        this.outbox.recordReceipt(receiptTo, d, this.lookups.locationName(locationId), now);
        d.notification_email_sent = true;
      }
      const { stored, open, doc } = this.storeRecord(d);
      this.locationsWithTransactions.add(locationId);
      this.ctx
        .stmt(`INSERT INTO transactions (id, location_id, product_transaction_id, transaction_api_id, payment_method, action, type_id, status_id,
            reason_code_id, amount, auth_amount, approved_amount, issuer_approved, refunded, first_six, last_four, brand, exp_date, account_vault_id, contact_id,
            previous_transaction_id, batch_id, settled, created_ts, modified_ts, doc, doc_keys, request_fingerprint)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`)
        .run(id, locationId, ptId, apiId, method, action, outcome.typeId, outcome.statusId, outcome.reasonCodeId, amountCents,
          outcome.authAmountCents, outcome.authAmountCents, outcome.authAmountCents, acct.firstSix, acct.lastFour, brand, acct.expDate, d.account_vault_id as string | null, contactId,
          previous?.id ?? null, batchId, now, now, stored.doc, stored.keys, idem?.fingerprint ?? null);
      origin?.withinCommit?.(this.ctx, { id, statusId: outcome.statusId, approved: outcome.approved, authAmountCents: outcome.authAmountCents, doc: d });
      this.announce('CREATE', id, locationId, ptId, doc, previous?.id ?? null);
      if (commercialL3) {
        this.ctx
          .stmt('INSERT INTO transaction_level3s (id, transaction_id, location_id, level3_data, is_default, created_ts, modified_ts) VALUES (?, ?, ?, ?, 1, ?, ?)')
          .run(this.ctx.newId(), id, locationId, JSON.stringify(defaultLevel3Data(brand === 'visa' ? 'visa' : 'mastercard', amountCents, tax)), now, now);
      }
      inserted = true;
      return { status: 201, doc, id, open };
    });
    // Committed: now the row counts.
    const counted = inserted ? this.counts.get(locationId) : undefined;
    if (counted !== undefined) this.counts.set(locationId, counted + 1);
    return result;
  }

  // ---------------------------------------------------------------- PUT

  /**
   * A PUT action on `row` (found first: 404 before any body error) from a body the one
   * validator has read for the action: every field of the table accepted by this action,
   * typed and bounded, required where the table says so; on edit null or "" clears.
   */
  async act(req: FastifyRequest, row: TransactionRow, read: BodyActionInput): Promise<TxnResult> {
    const auth = req.auth;
    const { errs } = read;
    const action = read.action as PutAction;
    const f = read.values;
    if (row.payment_method === 'ach') this.sweepAch();
    const amount = (f.transaction_amount as number | undefined) ?? null;
    const tip = typeof f.tip_amount === 'number' ? f.tip_amount : null;
    const email = (f.notification_email_address as string | null | undefined) ?? null;
    const partsSent = ['subtotal_amount', 'tax', 'tip_amount', 'surcharge_amount'].some((k) => f[k] !== undefined);
    if (action === 'authcomplete' && amount !== null && partsSent) checkAmountParts(f, amount, errs);
    if (amount !== null && amount <= 0) errs.add('transaction_amount', PAY_MSG.AMOUNT_ZERO);
    // payment_method on a PUT (authcomplete, authincrement) names the transaction's own method.
    if (f.payment_method !== undefined && f.payment_method !== row.payment_method) errs.add('payment_method', PAY_MSG.TRANSACTION_METHOD, { method: row.payment_method });
    const contactChange = action === 'edit' ? this.readContactChange(f, row.location_id, errs) : undefined;
    const moveVault = f.move_account_vault === true;
    const moveVaultTransactions = f.move_account_vault_transactions === true;
    if ((moveVault || moveVaultTransactions) && !errs.has('contact_id') && (contactChange === undefined || contactChange === null)) {
      errs.add(moveVault ? 'move_account_vault' : 'move_account_vault_transactions', PAY_MSG.MOVE_NEEDS_CONTACT);
    } else if (moveVaultTransactions && !moveVault) errs.add('move_account_vault_transactions', PAY_MSG.MOVE_TXNS_NEEDS_VAULT);
    else if (moveVault && !row.account_vault_id) errs.add('move_account_vault', PAY_MSG.MOVE_NO_VAULT);
    errs.throwIfAny();
    const now = this.ctx.clock.now();
    const locationName = email ? this.lookups.locationName(row.location_id) : '';
    // The action's own step (actions/<action>.ts) on this one pipeline.
    const step = PUT_ACTION_STEPS[action];
    const deps: PutActionDeps = {
      ctx: this.ctx,
      batches: this.batches,
      lookups: this.lookups,
      moveVaultToContact: (cur, contactId, withTransactions, userId, at) => this.moveVaultToContact(cur, contactId, withTransactions, userId, at),
    };
    const input: PutActionInput = { auth, f, amount, tip, partsSent, contactChange, moveVault, moveVaultTransactions, now };
    // Processor: only actions that ask the issuer (authincrement), before the write job.
    if (step.process) input.processed = await step.process(row, input, deps);

    return this.writer.submit((): TxnResult => {
      const cur = this.getRow(row.id) as TransactionRow;
      const before = this.recordJson(cur);
      const d = JSON.parse(before) as TransactionDoc;
      const s: PutActionState = {
        cur,
        d,
        status: cur.status_id,
        reason: cur.reason_code_id,
        amt: cur.amount,
        authAmt: cur.auth_amount,
        approvedAmt: cur.approved_amount,
        issuerApproved: cur.issuer_approved,
        batchId: cur.batch_id,
        contactId: cur.contact_id,
      };
      let expDate = cur.exp_date;
      let apiId = cur.transaction_api_id;
      const isCard = cur.payment_method === 'cc';
      // Idempotency: transaction_api_id on a PUT is the record's own, or the first one it gets (unique in the location).
      if (typeof f.transaction_api_id === 'string' && f.transaction_api_id !== cur.transaction_api_id) {
        if (cur.transaction_api_id !== null) throw new ApiError(422, { transaction_api_id: [fmt(PAY_MSG.API_ID_MISMATCH, { current: cur.transaction_api_id })] });
        if (this.byApiId(cur.location_id, f.transaction_api_id)) {
          throw new ApiError(422, { transaction_api_id: [fmt(MSG.TAKEN, { attribute: 'Transaction Api Id', value: f.transaction_api_id })] });
        }
        apiId = f.transaction_api_id;
        d.transaction_api_id = apiId;
      }
      step.apply(s, input, deps);
      const { status, reason, amt, authAmt, approvedAmt, issuerApproved, batchId, contactId } = s;
      // Engine-read fields a PUT may carry (the docs' O and C cells): they replace the stored values.
      if (typeof f.account_holder_name === 'string') d.account_holder_name = f.account_holder_name;
      if (typeof f.exp_date === 'string' && isCard) {
        expDate = f.exp_date;
        d.exp_date = expDate;
      }
      // The table's fields this action took (description on every action; the rest per the table).
      for (const [k, v] of Object.entries(f)) if (!(k === 'tip_amount' && action === 'edit') && FIELD_BY_NAME.get(k)?.storage === 'record') d[k] = storedValue(k, v);
      if (email) {
        d.notification_email_address = email;
      }
      d.status_id = status;
      d.reason_code_id = reason;
      d.transaction_amount = formatMoney(amt);
      d.auth_amount = formatMoney(authAmt);
      d.modified_ts = now;
      d.modified_user_id = auth.userId;
      if (email) {
        this.outbox.recordReceipt(email, d, locationName, now);
        d.notification_email_sent = true;
      }
      const { stored, open, doc } = this.storeRecord(d);
      recordChange(this.ctx, cur.id, auth.userId, action, diffDocs(JSON.parse(before) as Record<string, unknown>, d), now);
      this.ctx
        .stmt(`UPDATE transactions SET status_id = ?, reason_code_id = ?, amount = ?, auth_amount = ?, approved_amount = ?, issuer_approved = ?, batch_id = ?, contact_id = ?,
            exp_date = ?, transaction_api_id = ?, modified_ts = ?, doc = ?, doc_keys = ? WHERE id = ?`)
        .run(status, reason, amt, authAmt, approvedAmt, issuerApproved, batchId, contactId, expDate, apiId, now, stored.doc, stored.keys, cur.id);
      this.announce('UPDATE', cur.id, cur.location_id, cur.product_transaction_id, doc);
      return { status: 200, doc, id: cur.id, open };
    });
  }

  /**
   * edit's contact_id / contact_api_id: a contact of the transaction's location (id), ""
   * to detach (null), or not sent (undefined). The docs: "You cannot move a transaction
   * across locations."
   */
  private readContactChange(f: FieldValues, locationId: string, errs: ErrorCollector): string | null | undefined {
    const byId = 'contact_id' in f;
    if (!byId && !('contact_api_id' in f)) return undefined;
    const raw = byId ? f.contact_id : f.contact_api_id;
    if (raw === null) return null;
    const c = byId ? this.lookups.contact(String(raw)) : this.lookups.contactByApiId(locationId, String(raw));
    if (!c || c.location_id !== locationId) {
      if (byId) errs.add('contact_id', PAY_MSG.CONTACT_INVALID);
      else errs.add('contact_api_id', MSG.INVALID);
      return undefined;
    }
    return c.id;
  }

  /**
   * edit with move_account_vault: the transaction's vault moves to the contact, and with
   * move_account_vault_transactions every other transaction of that vault in the location
   * moves too (each change logged and announced). Runs inside the edit's write job.
   */
  private moveVaultToContact(cur: TransactionRow, contactId: string, withTransactions: boolean, userId: string, now: number): void {
    this.vaults.setContact(cur.account_vault_id as string, contactId, now);
    if (!withTransactions) return;
    const others = this.ctx
      .stmt('SELECT * FROM transactions WHERE account_vault_id = ? AND location_id = ? AND id <> ?')
      .all(cur.account_vault_id, cur.location_id, cur.id) as TransactionRow[];
    const upd = this.ctx.stmt(`UPDATE transactions SET contact_id = ?, modified_ts = ?, doc = json_set(doc, '$.contact_id', ?, '$.modified_ts', CAST(? AS INTEGER), '$.modified_user_id', ?) WHERE id = ?`);
    for (const t of others) {
      if (t.contact_id === contactId) continue;
      upd.run(contactId, now, contactId, now, userId, t.id);
      recordChange(this.ctx, t.id, userId, 'edit', { contact_id: [t.contact_id, contactId] }, now);
      const after = this.getRow(t.id) as TransactionRow;
      this.announce('UPDATE', after.id, after.location_id, after.product_transaction_id, this.recordJson(after));
    }
  }

  /**
   * The action whose role a PUT really needs (the permission check's `effectiveAction`): an
   * edit whose tip_amount is below the record's current tip lowers what the transaction
   * collects, which is a partial reversal. Reads only; an unknown record or a malformed tip
   * is left to the handler (404, 422).
   */
  effectiveAction(req: FastifyRequest, action: string): string {
    if (action !== 'edit') return action;
    const body = req.body as { transaction?: { tip_amount?: unknown } } | undefined;
    // Read as the validator reads it: a tip it refuses is its 422, not judged here.
    const tip = parseMoneyInput(body?.transaction?.tip_amount);
    if (tip === null) return action;
    let row: TransactionRow;
    try {
      row = this.findForRequest(req, (req.params as { id: string }).id);
    } catch {
      return action;
    }
    const current = parseMoney(this.record(row).tip_amount) ?? 0;
    return tip < current ? TIP_LOWERING_NEEDS : action;
  }

  findForRequest(req: FastifyRequest, idOrApiId: string): TransactionRow {
    return resolvePathRecord(req, idOrApiId, {
      byApiId: (loc, apiId) => (req.auth.locationSet.has(loc) ? this.byApiId(loc, apiId) : undefined),
      byId: (id) => this.visibleRow(id, req.auth),
    });
  }
}

function apiIdReused(apiId: string): ApiError {
  return new ApiError(422, { transaction_api_id: [fmt(PAY_MSG.API_ID_REUSED, { id: apiId })] });
}

/**
 * A POST whose transaction_api_id names `existing`: the first answer when it is the same
 * request (a row from before fingerprints, null, counts as the same), else 422.
 */
function sameRequestOrRefuse(existing: TransactionRow, fingerprint: string, apiId: string, record: string): TxnResult {
  if (existing.request_fingerprint !== null && existing.request_fingerprint !== fingerprint) throw apiIdReused(apiId);
  return { status: 201, doc: record, id: existing.id };
}

/**
 * What another module adds to a record it starts (a terminal's card-present fields, a
 * recurring's or a pay link's own): record keys only. A key outside the record would be
 * dropped by the lean store (record-storage.ts), so it is refused here, loudly, instead.
 */
function recordKeysOnly(extra: Record<string, unknown>): Record<string, unknown> {
  for (const k in extra) if (!RECORD_FIELD_SET.has(k)) throw new Error(`${k} is not a key of the transaction record (transaction-doc.ts)`);
  return extra;
}


/** Lodging: checkout not before checkin, at most 99 days apart. */
function checkStay(f: FieldValues, errs: ErrorCollector): void {
  if (typeof f.checkin_date !== 'string' || typeof f.checkout_date !== 'string') return;
  const days = (Date.parse(f.checkout_date) - Date.parse(f.checkin_date)) / 86_400_000;
  if (days < 0) errs.add('checkout_date', PAY_MSG.STAY_ORDER);
  else if (days > 99) errs.add('checkout_date', PAY_MSG.STAY_TOO_LONG);
}

function accountFromPrevious(p: TransactionRow, body: Body, errs: ErrorCollector): AccountData {
  const d = JSON.parse(p.doc) as Record<string, unknown>;
  const method = p.payment_method === 'ach' ? 'ach' : 'cc';
  const brand = method === 'cc' ? brandFromStored(p.first_six, (d.account_type as string | null) ?? null) : null;
  return {
    paymentMethod: method, brand, firstSix: p.first_six, lastFour: p.last_four ?? '', expDate: p.exp_date, accountNumber: null,
    cvv: method === 'cc' ? readCvv(body, brand, errs) : null, routing: (d.routing as string | null) ?? null,
    accountType: (d.account_type as string | null) ?? null, accountHolderName: sentHolder(body) ?? (d.account_holder_name as string | null) ?? null,
    achSecCode: method === 'ach' && present(body.ach_sec_code) ? readSecCode(body, errs) : ((d.ach_sec_code as string | null) ?? null), vaultId: p.account_vault_id,
  };
}

const AUTH_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
function newAuthCode(): string {
  let s = '';
  for (let i = 0; i < 6; i++) s += AUTH_ALPHABET[Math.floor(Math.random() * AUTH_ALPHABET.length)];
  return s;
}

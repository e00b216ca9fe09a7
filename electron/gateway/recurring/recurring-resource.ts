/**
 * The recurring resource (`/v2/recurrings`), declared once: list, view, create, update,
 * delete derive from it; placeOnHold, activate, skipPayment and deferPayment are the
 * hand-written actions (recurring-actions.ts).
 *
 * Readings the interface leaves open (also in electron/gateway/README.md):
 * - The type is `i` when installment_total_count (1–99) is sent, else `o`.
 * - start_date (and a PUT next_run_date) must be today or later in the location's time zone,
 *   so creating a recurring never charges for dates before it existed.
 * - An installment recurring's end_date follows from its count (the day before the position
 *   after the last payment), so it cannot be sent; an ongoing one's end_date is optional
 *   (0000-00-00 = none) and must not precede start_date.
 * - PUT active=0/1 changes only ongoing recurrings; on an installment it is ignored.
 * - product_transaction_id is required (seed) and must match the vault's payment method.
 * - status is `ended` once the schedule has no position left or end_date has passed at the
 *   location (also shown before the scheduler's next pass has stored it).
 */
import { formatMoney, parseMoney } from '../../../shared/payments/money';
import type { AuthInfo, EngineContext } from '../framework/context';
import { fmt, MSG, type ErrorCollector } from '../framework/errors';
import type { StoredFieldDef, ResourceDef, Row } from '../framework/resource';
import { createdUserExpand, refExpand } from '../merchant/field-kit';
import { REC_MSG } from './recurring-messages';
import { dateAt, installmentEndDate, isPastEnd, NO_DATE, type ScheduleState } from './recurring-schedule';
import { locationToday } from './location-today';
import { MANAGERS, SELLERS } from '../framework/permissions';

const str = (min: number, max: number, extra: Partial<StoredFieldDef> = {}): StoredFieldDef => ({ type: 'string', min, max, ...extra });
const system: StoredFieldDef = { type: 'string', readOnly: true };
/** Internal schedule state: stored, never accepted, never returned. */
const internal: StoredFieldDef = { type: 'integer', readOnly: true, writeOnly: true, filter: false, sortable: false };
const DATE_OR_NONE = /^(\d{4}-\d{2}-\d{2})$/;

function validDate(s: string): boolean {
  if (!DATE_OR_NONE.test(s)) return false;
  const t = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === s;
}

export function scheduleOf(row: Row): ScheduleState {
  return {
    recurring_type_id: row.recurring_type_id === 'i' ? 'i' : 'o',
    interval: Number(row.interval),
    interval_type: row.interval_type as ScheduleState['interval_type'],
    anchor_date: String(row.anchor_date),
    anchor_index: Number(row.anchor_index ?? 0),
    next_index: Number(row.next_index ?? 0),
    deferred_count: Number(row.deferred_count ?? 0),
    installment_total_count: row.installment_total_count === null || row.installment_total_count === undefined ? null : Number(row.installment_total_count),
    end_date: String(row.end_date ?? NO_DATE),
  };
}

/** The stored fields that follow from the schedule: next_run_date, end_date (installments), status when it ended. */
export function derivedFields(s: ScheduleState, status: string): Row {
  const out: Row = { next_run_date: dateAt(s, s.next_index) };
  if (s.recurring_type_id === 'i') out.end_date = installmentEndDate(s);
  const ended = isPastEnd({ ...s, end_date: (out.end_date as string | undefined) ?? s.end_date }, s.next_index);
  out.status = ended ? 'ended' : status;
  return out;
}

interface VaultInfo { id: string; location_id: string; payment_method: string; contact_id: string | null; active: number }

function vaultFor(ctx: EngineContext, raw: Record<string, unknown>, values: Row, locationId: string | undefined, errs: ErrorCollector): VaultInfo | undefined {
  let v: VaultInfo | undefined;
  if (typeof values.account_vault_id === 'string') {
    v = ctx.stmt('SELECT id, location_id, payment_method, contact_id, active FROM account_vaults WHERE id = ?').get(values.account_vault_id) as VaultInfo | undefined;
  } else if (raw.account_vault_api_id !== undefined && raw.account_vault_api_id !== null && raw.account_vault_api_id !== '' && locationId) {
    v = ctx.stmt('SELECT id, location_id, payment_method, contact_id, active FROM account_vaults WHERE location_id = ? AND account_vault_api_id = ?').get(locationId, String(raw.account_vault_api_id)) as VaultInfo | undefined;
  } else {
    return undefined;
  }
  if (!v || v.location_id !== locationId || v.active === 0) {
    errs.add('account_vault_id', REC_MSG.VAULT_INVALID);
    return undefined;
  }
  return v;
}

function checkProductTransaction(ctx: EngineContext, ptId: unknown, locationId: string, method: string | undefined, errs: ErrorCollector): void {
  if (typeof ptId !== 'string') return;
  const pt = ctx.stmt('SELECT location_id, payment_method FROM product_transactions WHERE id = ?').get(ptId) as { location_id: string; payment_method: string } | undefined;
  if (!pt || pt.location_id !== locationId) errs.add('product_transaction_id', REC_MSG.PRODUCT_TRANSACTION_INVALID);
  else if (method && pt.payment_method !== method) errs.add('product_transaction_id', fmt(REC_MSG.PRODUCT_TRANSACTION_METHOD, { pt: pt.payment_method, vault: method }));
}

function recurringTransactions(ctx: EngineContext, row: Row, auth: AuthInfo): unknown {
  const runs = ctx.stmt('SELECT transaction_id FROM recurring_runs WHERE recurring_id = ? AND transaction_id IS NOT NULL ORDER BY run_date').all(row.id) as { transaction_id: string }[];
  const out: unknown[] = [];
  for (const r of runs) {
    // transaction_record(): the whole record from its lean stored form (payments/record-storage.ts).
    const t = ctx.stmt('SELECT location_id, transaction_record(doc, doc_keys) AS doc FROM transactions WHERE id = ?').get(r.transaction_id) as { location_id: string; doc: string } | undefined;
    if (t && auth.locationSet.has(t.location_id)) out.push(JSON.parse(t.doc));
  }
  return out;
}

function contactOf(ctx: EngineContext, row: Row, auth: AuthInfo): unknown {
  if (!row.contact_id) return null;
  return refExpand('contact', 'contact_id')(ctx, row, auth);
}

function accountVaultOf(ctx: EngineContext, row: Row, auth: AuthInfo): unknown {
  const v = ctx.stmt('SELECT id, location_id, account_vault_api_id, payment_method, account_type, title, account_holder_name, first_six, last_four, exp_date, contact_id, active, created_ts, modified_ts FROM account_vaults WHERE id = ?').get(row.account_vault_id) as Row | undefined;
  if (!v || !auth.locationSet.has(String(v.location_id))) return null;
  return { ...v, _links: { self: { href: `${ctx.origin}/v2/accountvaults/${String(v.id)}` } } };
}

export const recurringResource: ResourceDef = {
  name: 'recurring',
  plural: 'recurrings',
  table: 'recurrings',
  scope: { kind: 'column', column: 'location_id' },
  apiId: { field: 'recurring_api_id', scopeColumn: 'location_id' },
  defaultSort: '-created_ts',
  methods: ['list', 'view', 'create', 'update', 'delete'],
  // A schedule charges a saved card on its own: only managers set or change one; sellers may read them.
  allow: { list: SELLERS, view: SELLERS, create: MANAGERS, update: MANAGERS, delete: MANAGERS },
  fields: {
    id: { type: 'string', readOnly: true },
    // Left out it stays; emptied it would leave the schedule without an account (NOT NULL).
    account_vault_id: str(24, 36, { nullable: false }),
    account_vault_api_id: { type: 'string', virtual: true, min: 1, max: 64 },
    location_id: { type: 'string', min: 24, max: 36, required: true, update: false, ref: 'location' },
    product_transaction_id: { type: 'string', min: 24, max: 36, required: true },
    transaction_amount: str(1, 12, { required: true, example: '10.00', filter: 'money', format: 'money', messages: { pattern: REC_MSG.AMOUNT_INVALID } }),
    interval: { type: 'integer', minValue: 1, maxValue: 999, required: true, example: 1 },
    interval_type: { type: 'string', enum: ['d', 'w', 'm'], required: true, example: 'm' },
    start_date: { type: 'date', required: true, example: '2030-01-15' },
    description: str(0, 36),
    end_date: str(10, 10, { example: NO_DATE, nullable: false }), // "no end" is 0000-00-00, never null
    installment_total_count: { type: 'integer', minValue: 1, maxValue: 99, update: false },
    installment_amount_total: { type: 'string', readOnly: true },
    next_run_date: { type: 'date', example: '2030-02-15', nullable: false },
    notification_days: { type: 'integer', minValue: 0, maxValue: 99, default: 0 },
    active: { type: 'integer', enum: [0, 1], default: 1 },
    payment_method: { type: 'string', readOnly: true },
    recurring_api_id: str(1, 64, { format: 'no-spaces' }),
    recurring_type_id: { type: 'string', readOnly: true },
    status: { type: 'string', readOnly: true },
    contact_id: system,
    recurring_c1: str(0, 128),
    recurring_c2: str(0, 128),
    recurring_c3: str(0, 128),
    amount_cents: internal,
    anchor_date: { ...internal, type: 'string' },
    anchor_index: internal,
    next_index: internal,
    deferred_count: internal,
    skipped_count: internal,
    runs_done: internal,
    created_user_id: system,
    modified_user_id: system,
    created_ts: { type: 'integer', readOnly: true },
    modified_ts: { type: 'integer', readOnly: true },
  },
  expands: {
    created_user: createdUserExpand,
    account_vault: accountVaultOf,
    transactions: recurringTransactions,
    signature: () => null, // no signature capture in this engine
    location: refExpand('location', 'location_id'),
    contact: contactOf,
    tags: () => [],
    product_transaction: refExpand('product_transaction', 'product_transaction_id'),
    // Ringup extension: each run with its date (a charge's created_ts is the engine clock, not
    // the sandbox clock's), its transaction and status, or why it was refused.
    runs: (ctx, row) => ctx.stmt('SELECT run_date, transaction_id, status_id, error FROM recurring_runs WHERE recurring_id = ? ORDER BY run_date').all(row.id),
  },

  validate({ ctx, errs, mode, input, existing }) {
    const v = input.values;
    const raw = input.raw;
    const locationId = String(existing?.location_id ?? v.location_id ?? '');
    if (!locationId) return;
    const today = locationToday(ctx, locationId);
    if (v.transaction_amount !== undefined) {
      const cents = parseMoney(v.transaction_amount);
      if (cents === null || cents <= 0) errs.add('transaction_amount', REC_MSG.AMOUNT_INVALID);
    }
    let method = existing ? String(existing.payment_method) : undefined;
    if (mode === 'create' || v.account_vault_id !== undefined || raw.account_vault_api_id !== undefined) {
      const vault = vaultFor(ctx, raw, v, locationId, errs);
      if (vault) {
        v.account_vault_id = vault.id;
        method = vault.payment_method;
      } else if (mode === 'create' && !errs.has('account_vault_id')) errs.add('account_vault_id', REC_MSG.VAULT_REQUIRED);
    }
    const ptId = v.product_transaction_id ?? (v.account_vault_id !== undefined ? existing?.product_transaction_id : undefined);
    checkProductTransaction(ctx, ptId, locationId, method, errs);
    const isInstallment = existing ? existing.recurring_type_id === 'i' : v.installment_total_count !== undefined && v.installment_total_count !== null;
    if (v.end_date !== undefined && v.end_date !== null) {
      const end = String(v.end_date);
      if (isInstallment) errs.add('end_date', REC_MSG.END_ON_INSTALLMENT);
      else if (end !== NO_DATE && !validDate(end)) errs.add('end_date', fmt(MSG.BAD_DATE, { attribute: 'End Date' }));
      else if (end !== NO_DATE && end < String(v.start_date ?? existing?.start_date ?? '')) errs.add('end_date', REC_MSG.END_BEFORE_START);
    }
    if (mode === 'create' && typeof v.start_date === 'string' && v.start_date < today) errs.add('start_date', fmt(REC_MSG.START_PAST, { today }));
    if (mode === 'update' && existing) {
      if (typeof v.start_date === 'string' && v.start_date !== existing.start_date) {
        if (Number(existing.runs_done) > 0 || Number(existing.next_index) > 0) errs.add('start_date', REC_MSG.START_AFTER_FIRST_RUN);
        else if (v.start_date < today) errs.add('start_date', fmt(REC_MSG.START_PAST, { today }));
      }
      if (typeof v.next_run_date === 'string' && v.next_run_date < today) errs.add('next_run_date', fmt(REC_MSG.NEXT_RUN_PAST, { today }));
      else if (typeof v.next_run_date === 'string' && ctx.stmt('SELECT 1 FROM recurring_runs WHERE recurring_id = ? AND run_date >= ? LIMIT 1').get(existing.id, v.next_run_date)) {
        errs.add('next_run_date', fmt(REC_MSG.NEXT_RUN_DONE, { date: String((ctx.stmt('SELECT MAX(run_date) AS d FROM recurring_runs WHERE recurring_id = ?').get(existing.id) as { d: string }).d) }));
      }
    }
  },

  beforeInsert({ ctx, input }) {
    const v = input.values;
    const vault = ctx.stmt('SELECT payment_method, contact_id FROM account_vaults WHERE id = ?').get(v.account_vault_id) as { payment_method: string; contact_id: string | null };
    const cents = parseMoney(v.transaction_amount) as number;
    v.transaction_amount = formatMoney(cents);
    v.amount_cents = cents;
    v.payment_method = vault.payment_method;
    v.contact_id = vault.contact_id;
    const installment = v.installment_total_count !== undefined && v.installment_total_count !== null;
    v.recurring_type_id = installment ? 'i' : 'o';
    v.installment_amount_total = installment ? formatMoney(cents * Number(v.installment_total_count)) : null;
    if (v.end_date === undefined || v.end_date === null || v.end_date === '') v.end_date = NO_DATE;
    v.anchor_date = v.start_date;
    v.anchor_index = 0;
    v.next_index = 0;
    v.deferred_count = 0;
    v.skipped_count = 0;
    v.runs_done = 0;
    Object.assign(v, derivedFields(scheduleOf(v), 'active'));
  },

  beforeUpdate({ ctx, input, existing }) {
    const v = input.values;
    if (v.transaction_amount !== undefined) {
      const cents = parseMoney(v.transaction_amount) as number;
      v.transaction_amount = formatMoney(cents);
      v.amount_cents = cents;
      if (existing.recurring_type_id === 'i') v.installment_amount_total = formatMoney(cents * Number(existing.installment_total_count));
    }
    if (v.account_vault_id !== undefined && v.account_vault_id !== existing.account_vault_id) {
      const vault = ctx.stmt('SELECT payment_method, contact_id FROM account_vaults WHERE id = ?').get(v.account_vault_id) as { payment_method: string; contact_id: string | null };
      v.payment_method = vault.payment_method;
      v.contact_id = vault.contact_id;
    }
    // Only ongoing recurrings can be made inactive by PUT; otherwise the field is ignored.
    if (existing.recurring_type_id !== 'o') delete v.active;
    const merged = { ...existing, ...v };
    let s = scheduleOf(merged);
    const nextChanged = typeof v.next_run_date === 'string' && v.next_run_date !== existing.next_run_date;
    const startChanged = typeof v.start_date === 'string' && v.start_date !== existing.start_date;
    const stepChanged = (v.interval !== undefined && Number(v.interval) !== Number(existing.interval)) || (v.interval_type !== undefined && v.interval_type !== existing.interval_type);
    if (nextChanged || startChanged || stepChanged) {
      // Re-anchor at the (new) next run date, keeping the positions left.
      const anchor = nextChanged ? String(v.next_run_date) : startChanged ? String(v.start_date) : String(existing.next_run_date);
      s = { ...s, anchor_date: anchor, anchor_index: s.next_index };
      v.anchor_date = anchor;
      v.anchor_index = s.next_index;
    }
    const status = existing.status === 'ended' ? 'active' : String(existing.status);
    Object.assign(v, derivedFields(s, status));
  },

  decorate(ctx, row, out) {
    out.active = Number(row.active);
    out.interval = Number(row.interval);
    if (row.recurring_type_id !== 'i') out.installment_amount_total = null;
    // Ended by its end date passing, before the scheduler's next pass stores it.
    if (out.status !== 'ended' && row.end_date !== NO_DATE && String(row.end_date) < locationToday(ctx, String(row.location_id))) out.status = 'ended';
  },
};

/**
 * The Level 3 entry form of a commercial-card sale: the common fields, the card network's
 * own fields and the line items. Every change runs the engine's own schema
 * (shared/payments/level3-schema.ts) and shows its messages inline under the fields the
 * user has touched (all of them after a save attempt; the first one then takes the focus).
 * The network's line-item limit (998 Visa, 98 Mastercard) stops "Add line item". The
 * dialog keeps its title and its actions in view; only the fields scroll between them.
 */
import { useMemo, useRef, useState, type FormEvent } from 'react';
import type { Level3View } from '../../../shared/ipc/contract';
import { L3_ERRORS, TAX_TYPE_IDS, validateLevel3, type Level3Network } from '../../../shared/payments/level3-schema';
import { ringup } from '../bridge/bridge';
import { useFocusTrap } from '../ui/use-focus-trap';

type Row = Record<string, string>;
interface FieldDef {
  key: string;
  label: string;
  hint?: string;
  options?: readonly string[];
  /** Takes two columns (a line's description). */
  wide?: boolean;
}

/** Every field of the shared schema (shared/payments/level3-schema.ts), order first, then the network's own. */
const COMMON: readonly FieldDef[] = [
  { key: 'tax_amount', label: 'Tax amount', hint: '0.00' },
  { key: 'sales_tax', label: 'Sales tax', hint: '0.00' },
  { key: 'national_tax', label: 'National tax', hint: '0.00' },
  { key: 'freight_amount', label: 'Freight', hint: '0.00' },
  { key: 'duty_amount', label: 'Duty', hint: '0.00' },
  { key: 'shipfrom_zip_code', label: 'Ship from ZIP' },
  { key: 'shipto_zip_code', label: 'Ship to ZIP' },
  { key: 'destination_country_code', label: 'Destination country', hint: 'USA' },
  { key: 'tax_exempt', label: 'Tax exempt', options: ['', '0', '1'] },
];
const NETWORK_FIELDS: Record<Level3Network, readonly FieldDef[]> = {
  visa: [
    { key: 'order_date', label: 'Order date', hint: 'YYMMDD' },
    { key: 'summary_commodity_code', label: 'Summary commodity code' },
    { key: 'tax_rate', label: 'Tax rate (%)', hint: '8.25' },
    { key: 'merchant_vat_registration', label: 'Merchant VAT number' },
    { key: 'customer_vat_registration', label: 'Customer VAT number' },
    { key: 'unique_vat_ref_number', label: 'VAT invoice reference' },
  ],
  mastercard: [],
};
/** A line's fields per network, in the order a manager reads an invoice line; the description takes two columns. */
const LINE_FIELDS: Record<Level3Network, readonly FieldDef[]> = {
  visa: [
    { key: 'description', label: 'Description', wide: true },
    { key: 'product_code', label: 'Product code' },
    { key: 'commodity_code', label: 'Commodity code' },
    { key: 'quantity', label: 'Qty' },
    { key: 'unit_code', label: 'Unit', hint: 'EA' },
    { key: 'unit_cost', label: 'Unit cost' },
    { key: 'discount_amount', label: 'Discount', hint: '0.00' },
    { key: 'tax_amount', label: 'Tax', hint: '0.00' },
    { key: 'tax_rate', label: 'Tax rate (%)' },
    { key: 'other_tax_amount', label: 'Other tax', hint: '0.00' },
  ],
  mastercard: [
    { key: 'description', label: 'Description', wide: true },
    { key: 'product_code', label: 'Product code' },
    { key: 'quantity', label: 'Qty' },
    { key: 'unit_code', label: 'Unit', hint: 'EA' },
    { key: 'unit_cost', label: 'Unit cost' },
    { key: 'debit_credit', label: 'Debit/credit', options: ['', 'D', 'C'] },
    { key: 'discount_amount', label: 'Discount', hint: '0.00' },
    { key: 'discount_rate', label: 'Discount rate (%)' },
    { key: 'tax_amount', label: 'Tax', hint: '0.00' },
    { key: 'tax_rate', label: 'Tax rate (%)' },
    { key: 'tax_type_id', label: 'Tax type', options: ['', ...TAX_TYPE_IDS] },
    { key: 'tax_type_applied', label: 'Tax type applied' },
    { key: 'alternate_tax_id', label: 'Alternate tax ID' },
  ],
};
const NETWORK_LABEL: Record<Level3Network, string> = { visa: 'Visa', mastercard: 'Mastercard' };

function toRow(o: unknown): Row {
  const r: Row = {};
  if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined && typeof v !== 'object') r[k] = String(v);
  return r;
}
function compact(r: Row): Record<string, string> {
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v.trim() !== ''));
}

export function Level3Form({ view, onClose, onSaved }: { view: Level3View; onClose(): void; onSaved(v: Level3View): void }) {
  const network = view.network!;
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref);
  const [fields, setFields] = useState<Row>(() => toRow(view.data));
  const [lines, setLines] = useState<Row[]>(() => (view.data?.line_items ?? []).map(toRow));
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const data = useMemo(() => ({ ...compact(fields), line_items: lines.map(compact) }), [fields, lines]);
  const errors = useMemo(() => {
    const v = validateLevel3(network, data);
    return v.ok ? {} : v.errors;
  }, [network, data]);
  const max = view.maxLineItems;
  const atMax = lines.length >= max;

  const touch = (key: string) => setTouched((t) => (t.has(key) ? t : new Set(t).add(key)));
  const errorOf = (key: string) => (tried || touched.has(key) ? (errors[key]?.[0] ?? null) : null);

  function field(def: FieldDef, key: string, value: string, set: (v: string) => void, lineNo?: number) {
    const id = `l3-${key.replace(/\./g, '-')}`;
    const err = errorOf(key);
    const common = {
      id,
      value,
      'aria-invalid': err ? true : undefined,
      'aria-describedby': err ? `${id}-error` : undefined,
      onChange: (e: { target: { value: string } }) => {
        set(e.target.value);
        touch(key);
      },
    };
    return (
      <div className={`field${lineNo !== undefined ? ' l3-cell' : ''}${def.wide ? ' l3-wide' : ''}`} key={key}>
        <label htmlFor={id}>
          {def.label}
          {lineNo !== undefined && <span className="sr-only">, line {lineNo}</span>}
        </label>
        {def.options ? (
          <select className="input" {...common}>
            {def.options.map((o) => (
              <option key={o} value={o}>
                {o === '' ? '—' : o}
              </option>
            ))}
          </select>
        ) : (
          <input className="input" autoComplete="off" placeholder={def.hint} {...common} />
        )}
        {err && (
          <p id={`${id}-error`} className="field-error">
            {err}
          </p>
        )}
      </div>
    );
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    setServerError(null);
    if (Object.keys(errors).length > 0) {
      // The first field that needs attention takes the focus (and scrolls into view) once its message shows.
      requestAnimationFrame(() => {
        const first = ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
        first?.focus({ preventScroll: true });
        first?.closest('.field')?.scrollIntoView({ block: 'center' });
      });
      return;
    }
    setBusy(true);
    const r = await ringup.level3Save({ transactionId: view.transactionId, data });
    setBusy(false);
    if (!r.ok) return setServerError(r.error.fields ? `${r.error.message} ${Object.values(r.error.fields).flat().join(' ')}` : r.error.message);
    onSaved(r.value);
  }

  const lineDefs = LINE_FIELDS[network];
  const listError = errorOf('level3_data.line_items') ?? (tried ? (errors['level3_data.line_items']?.[0] ?? null) : null);

  return (
    <div className="overlay">
      <div ref={ref} className="dialog dialog-wide l3-dialog" role="dialog" aria-modal="true" aria-labelledby="l3-title">
        <form className="l3-form" onSubmit={(e) => void save(e)} noValidate>
          <div className="dialog-head">
            <h2 id="l3-title">Level 3 data · {view.cardLabel}</h2>
            <button type="button" className="btn btn-quiet" onClick={onClose}>
              Close
            </button>
          </div>
          <div className="l3-body">
            <p className="muted">Business cards get lower processing rates with order details. Saving replaces what was there before.</p>
            <fieldset className="l3-group">
              <legend>Order</legend>
              <div className="l3-grid">
                {COMMON.map((d) => field(d, `level3_data.${d.key}`, fields[d.key] ?? '', (v) => setFields((f) => ({ ...f, [d.key]: v }))))}
              </div>
            </fieldset>
            {NETWORK_FIELDS[network].length > 0 && (
              <fieldset className="l3-group">
                <legend>{NETWORK_LABEL[network]} fields</legend>
                <div className="l3-grid">
                  {NETWORK_FIELDS[network].map((d) => field(d, `level3_data.${d.key}`, fields[d.key] ?? '', (v) => setFields((f) => ({ ...f, [d.key]: v }))))}
                </div>
              </fieldset>
            )}
            <fieldset className="l3-group">
              <legend>
                Line items <span className="muted" data-testid="l3-line-count">({lines.length.toLocaleString()} of {max.toLocaleString()})</span>
              </legend>
              <ol className="l3-lines" aria-label="Line items">
                {lines.map((ln, i) => (
                  <li key={i} className="l3-line" data-testid="l3-line">
                    <div className="l3-line-head">
                      <span>Line {i + 1}</span>
                      <button type="button" className="btn btn-quiet" aria-label={`Remove line ${i + 1}`} onClick={() => setLines((all) => all.filter((_, j) => j !== i))}>
                        Remove
                      </button>
                    </div>
                    <div className="l3-line-grid">
                      {lineDefs.map((d) => field(d, `level3_data.line_items.${i}.${d.key}`, ln[d.key] ?? '', (v) => setLines((all) => all.map((x, j) => (j === i ? { ...x, [d.key]: v } : x))), i + 1))}
                    </div>
                  </li>
                ))}
              </ol>
              {listError && <p className="field-error">{listError}</p>}
              <div className="form-actions">
                <button type="button" className="btn btn-secondary" disabled={atMax} aria-describedby={atMax ? 'l3-max' : undefined} onClick={() => setLines((all) => [...all, { quantity: '1', unit_code: 'EA' }])}>
                  Add line item
                </button>
                {atMax && (
                  <p id="l3-max" className="muted" role="status">
                    {network === 'visa' ? L3_ERRORS.tooManyLineItemsVisa : L3_ERRORS.tooManyLineItemsMastercard}
                  </p>
                )}
              </div>
            </fieldset>
          </div>
          <div className="l3-foot">
            {serverError && (
              <p className="notice notice-error" role="alert">
                {serverError}
              </p>
            )}
            {tried && Object.keys(errors).length > 0 && (
              <p className="notice notice-error" role="alert">
                Some fields need attention: see the messages under them.
              </p>
            )}
            <div className="dialog-actions">
              <button type="button" className="btn btn-secondary btn-lg" onClick={onClose}>
                Cancel
              </button>
              <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
                {busy ? 'Saving…' : 'Save Level 3 data'}
              </button>
            </div>
          </div>
        </form>
      </div>
    </div>
  );
}

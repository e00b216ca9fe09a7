/**
 * Catalogue (managers): the items the counter sells — add, edit, archive (never delete, so
 * past sales keep their items) and import a CSV file. A file with any bad row imports
 * nothing and lists each bad line; a row whose SKU an item has updates that item (the
 * answer says how many were added and updated); the quick-key mark puts an item on the sale
 * screen's grid (in pages of 24, by name). The cart rules: the discount limit a cashier may
 * give, and the default commodity code Level 3 gives a line without one (an open amount).
 * Component state only (no store): leaving the screen or switching user drops a half-typed form.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { itemFieldsSchema, type CatalogueItem, type CsvImportResult, type TaxCategory } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { money, parseTypedAmount } from '../ui/money-format';
import { ErrorNote } from '../sales/outcome-note';
import { QUICK_KEYS_PER_PAGE } from '../cart/quick-keys';

interface Draft {
  id: string | null;
  name: string;
  price: string;
  sku: string;
  productCode: string;
  unitCode: string;
  commodityCode: string;
  taxCategory: TaxCategory;
  quickKey: boolean;
}
const EMPTY: Draft = { id: null, name: '', price: '', sku: '', productCode: '', unitCode: 'EA', commodityCode: '', taxCategory: 'standard', quickKey: true };
const draftOf = (i: CatalogueItem): Draft => ({ id: i.id, name: i.name, price: money(i.priceCents).replace(/[$,]/g, ''), sku: i.sku, productCode: i.productCode, unitCode: i.unitCode, commodityCode: i.commodityCode, taxCategory: i.taxCategory, quickKey: i.quickKey });

export function CatalogueScreen() {
  const [items, setItems] = useState<CatalogueItem[]>([]);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [imported, setImported] = useState<CsvImportResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [limit, setLimit] = useState('');
  const [limitSaved, setLimitSaved] = useState<string | null>(null);
  const [commodity, setCommodity] = useState('');
  const [commoditySaved, setCommoditySaved] = useState<{ ok: boolean; text: string } | null>(null);

  const reload = useCallback(async () => {
    const r = await ringup.catalogueList({ includeArchived: true, search: '' });
    if (r.ok) setItems(r.value);
    else setError(r.error.message);
  }, []);
  useEffect(() => {
    void reload();
    void ringup.catalogueRules().then((r) => {
      if (!r.ok) return;
      setLimit(String(r.value.discountApprovalPercent));
      setCommodity(r.value.defaultCommodityCode);
    });
  }, [reload]);
  const limitValue = /^\d{1,3}$/.test(limit.trim()) && Number(limit) <= 100 ? Number(limit) : null;
  const saveLimit = async (e: FormEvent) => {
    e.preventDefault();
    if (limitValue === null) return;
    const r = await ringup.catalogueSetRules({ discountApprovalPercent: limitValue });
    setLimitSaved(r.ok ? `Saved: discounts above ${r.value.discountApprovalPercent} % need a manager.` : r.error.message);
  };
  const saveCommodity = async (e: FormEvent) => {
    e.preventDefault();
    const r = await ringup.catalogueSetRules({ defaultCommodityCode: commodity.trim() });
    if (!r.ok) return setCommoditySaved({ ok: false, text: r.error.fields?.defaultCommodityCode?.[0] ?? r.error.message });
    setCommoditySaved({
      ok: true,
      text: r.value.defaultCommodityCode
        ? `Saved: a line without a commodity code is sent as ${r.value.defaultCommodityCode}.`
        : 'Saved: a line without a commodity code takes the one the sale’s items carry.',
    });
  };
  const archive = async (i: CatalogueItem) => {
    setMessage(null);
    setError(null);
    const r = await ringup.catalogueArchive({ id: i.id, archived: !i.archived });
    if (!r.ok) return setError(r.error.message);
    setMessage(r.value.archived ? `${r.value.name} archived: it is off the sale screen; past sales keep it.` : `${r.value.name} restored.`);
    await reload();
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setMessage(null);
    setError(null);
    const priceCents = parseTypedAmount(draft.price);
    // The schema is strict: the draft's own keys (id, the typed price) stay out of what it checks.
    const { id: _id, price: _price, ...fields } = draft;
    const parsed = itemFieldsSchema.safeParse({ ...fields, priceCents: priceCents ?? -1 });
    if (!parsed.success) {
      const errs: Record<string, string> = {};
      for (const i of parsed.error.issues) errs[String(i.path[0])] ??= i.path[0] === 'priceCents' ? 'Enter a price such as 3.50.' : i.message;
      setErrors(errs);
      // A problem no field shows (there should be none) is still said, never swallowed.
      const unplaced = parsed.error.issues.find((i) => i.path.length === 0);
      if (unplaced) setError(unplaced.message);
      return;
    }
    setErrors({});
    setBusy(true);
    const r = draft.id ? await ringup.catalogueUpdate({ id: draft.id, fields: parsed.data }) : await ringup.catalogueAdd(parsed.data);
    setBusy(false);
    if (!r.ok) {
      // A field the core refused (a SKU another item has) shows on that field.
      const fields = Object.fromEntries(Object.entries(r.error.fields ?? {}).map(([k, v]) => [k, v[0] ?? r.error.message]));
      if (Object.keys(fields).length > 0) return setErrors(fields);
      return setError(r.error.message);
    }
    setMessage(`${r.value.name} saved.`);
    setDraft(EMPTY);
    await reload();
  };

  const importFile = async (file: File) => {
    setImported(null);
    setError(null);
    setBusy(true);
    const r = await ringup.catalogueImportCsv({ csv: await file.text() });
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    setImported(r.value);
    await reload();
  };

  const field = (k: keyof Draft, label: string, extra: { inputMode?: 'decimal'; hint?: string } = {}) => (
    <div className="field">
      <label htmlFor={`item-${k}`}>{label}</label>
      <input
        id={`item-${k}`}
        className="input"
        inputMode={extra.inputMode}
        value={String(draft[k] ?? '')}
        onChange={(e) => setDraft({ ...draft, [k]: e.target.value })}
        aria-invalid={errors[k === 'price' ? 'priceCents' : k] !== undefined}
        aria-describedby={errors[k === 'price' ? 'priceCents' : k] ? `item-${k}-error` : undefined}
      />
      {errors[k === 'price' ? 'priceCents' : k] && (
        <p id={`item-${k}-error`} className="field-error">
          {errors[k === 'price' ? 'priceCents' : k]}
        </p>
      )}
    </div>
  );

  return (
    <div className="screen catalogue-screen">
      <section className="panel" aria-labelledby="catalogue-title">
        <h1 id="catalogue-title" className="section-title" tabIndex={-1} data-screen-focus>
          Catalogue
        </h1>
        <form onSubmit={(e) => void save(e)} aria-label={draft.id ? 'Edit item' : 'Add an item'}>
          <div className="catalogue-grid">
            {field('name', 'Name')}
            {field('price', 'Price', { inputMode: 'decimal' })}
            {field('sku', 'SKU')}
            {field('productCode', 'Product code')}
            {field('unitCode', 'Unit (EA, KGM, LBR…)')}
            {field('commodityCode', 'Commodity code')}
            <div className="field">
              <label htmlFor="item-tax">Tax</label>
              <select id="item-tax" className="input" value={draft.taxCategory} onChange={(e) => setDraft({ ...draft, taxCategory: e.target.value as TaxCategory })}>
                <option value="standard">Sales tax</option>
                <option value="exempt">No tax</option>
              </select>
            </div>
            <label className="switch">
              <input type="checkbox" checked={draft.quickKey} onChange={(e) => setDraft({ ...draft, quickKey: e.target.checked })} />
              <span className="switch-track" aria-hidden="true" />
              Quick key on the sale screen
            </label>
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
              {draft.id ? 'Save item' : 'Add item'}
            </button>
            {draft.id && (
              <button type="button" className="btn btn-secondary btn-lg" onClick={() => setDraft(EMPTY)}>
                Stop editing
              </button>
            )}
            <label className="btn btn-secondary btn-lg file-button">
              Import CSV…
              <input type="file" accept=".csv,text/csv" className="sr-only" data-testid="csv-file" onChange={(e) => e.target.files?.[0] && void importFile(e.target.files[0])} />
            </label>
          </div>
        </form>
        <p className="muted">CSV columns: name, price (such as 3.50), and optionally sku, product_code, unit_code, commodity_code, tax_category (standard or exempt), quick_key (yes or no).</p>
        {message && (
          <p className="notice notice-ok" role="status">
            {message}
          </p>
        )}
        <ErrorNote text={error} />
        {imported && imported.errors.length === 0 && (
          <p className="notice notice-ok" role="status" data-testid="csv-result">
            Imported {imported.imported} {imported.imported === 1 ? 'item' : 'items'}. {imported.added} added, {imported.updated} updated (matched by SKU).
          </p>
        )}
        {imported && imported.errors.length > 0 && (
          <div className="notice notice-error" role="alert" data-testid="csv-result">
            <p>Nothing was imported: fix these lines and import the file again.</p>
            <ul>
              {imported.errors.map((e) => (
                <li key={`${e.line}-${e.message}`}>
                  Line {e.line}: {e.message}
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
      <section className="panel" aria-labelledby="rules-title">
        <h2 id="rules-title" className="section-title">
          Cart rules
        </h2>
        <form className="input-row rule-row" onSubmit={(e) => void saveLimit(e)}>
          <div className="field">
            <label htmlFor="discount-limit">Discount limit for cashiers (%)</label>
            <input
              id="discount-limit"
              className="input input-short"
              inputMode="numeric"
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
              aria-invalid={limit !== '' && limitValue === null}
              aria-describedby={limit !== '' && limitValue === null ? 'discount-limit-error' : 'discount-limit-hint'}
            />
          </div>
          <button type="submit" className="btn btn-secondary btn-lg" disabled={limitValue === null}>
            Save
          </button>
        </form>
        {limit !== '' && limitValue === null ? (
          <p id="discount-limit-error" className="field-error">
            A whole percent from 0 to 100.
          </p>
        ) : (
          <p id="discount-limit-hint" className="muted">
            A cashier's discount above this share of what it discounts needs a manager's PIN (also when an edit makes it larger).
          </p>
        )}
        {limitSaved && (
          <p className="notice notice-ok" role="status">
            {limitSaved}
          </p>
        )}
        <form className="input-row rule-row" onSubmit={(e) => void saveCommodity(e)}>
          <div className="field">
            <label htmlFor="default-commodity">Default commodity code</label>
            <input id="default-commodity" className="input input-short" value={commodity} maxLength={12} onChange={(e) => setCommodity(e.target.value)} aria-describedby="default-commodity-hint" />
          </div>
          <button type="submit" className="btn btn-secondary btn-lg">
            Save code
          </button>
        </form>
        <p id="default-commodity-hint" className="muted">
          Level 3 for Visa: the commodity code of a line without one, such as an open amount. Blank: the code the sale's items carry.
        </p>
        {commoditySaved?.ok && (
          <p className="notice notice-ok" role="status">
            {commoditySaved.text}
          </p>
        )}
        <ErrorNote text={commoditySaved && !commoditySaved.ok ? commoditySaved.text : null} />
      </section>
      <section className="panel" aria-labelledby="items-title">
        <h2 id="items-title" className="section-title">
          Items ({items.filter((i) => !i.archived).length})
        </h2>
        <p className="muted">
          Quick keys: {items.filter((i) => i.quickKey && !i.archived).length}, shown on the sale screen by name in pages of {QUICK_KEYS_PER_PAGE}.
        </p>
        <table className="breakdown" data-testid="catalogue-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Price</th>
              <th scope="col">SKU</th>
              <th scope="col">Unit</th>
              <th scope="col">Tax</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <tr key={i.id} className={i.archived ? 'muted' : undefined}>
                <td>
                  {i.name}
                  {i.archived ? ' (archived)' : ''}
                </td>
                <td>{money(i.priceCents)}</td>
                <td>{i.sku}</td>
                <td>{i.unitCode}</td>
                <td>{i.taxCategory === 'exempt' ? 'No tax' : 'Sales tax'}</td>
                <td>
                  <button type="button" className="btn btn-quiet" onClick={() => setDraft(draftOf(i))} aria-label={`Edit ${i.name}`}>
                    Edit
                  </button>
                  <button
                    type="button"
                    className="btn btn-quiet"
                    aria-label={`${i.archived ? 'Restore' : 'Archive'} ${i.name}`}
                    onClick={() => void archive(i)}
                  >
                    {i.archived ? 'Restore' : 'Archive'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

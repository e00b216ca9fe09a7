/**
 * Catalogue (managers): the items the counter sells — add, edit, archive (never delete, so
 * past sales keep their items) and import a CSV file. A file with any bad row imports
 * nothing and lists each bad line; the quick-key mark puts an item on the sale screen's grid.
 * Component state only (no store): leaving the screen or switching user drops a half-typed form.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { itemFieldsSchema, type CatalogueItem, type CsvImportResult, type TaxCategory } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { money, parseTypedAmount } from '../lib/money-format';
import { ErrorNote } from '../components/outcome-note';

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

  const reload = useCallback(async () => {
    const r = await ringup.catalogueList({ includeArchived: true, search: '' });
    if (r.ok) setItems(r.value);
    else setError(r.error.message);
  }, []);
  useEffect(() => {
    void reload();
    void ringup.catalogueRules().then((r) => r.ok && setLimit(String(r.value.discountApprovalPercent)));
  }, [reload]);
  const limitValue = /^\d{1,3}$/.test(limit.trim()) && Number(limit) <= 100 ? Number(limit) : null;
  const saveLimit = async (e: FormEvent) => {
    e.preventDefault();
    if (limitValue === null) return;
    const r = await ringup.catalogueSetRules({ discountApprovalPercent: limitValue });
    setLimitSaved(r.ok ? `Saved: discounts above ${r.value.discountApprovalPercent} % need a manager.` : r.error.message);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setMessage(null);
    setError(null);
    const priceCents = parseTypedAmount(draft.price);
    const parsed = itemFieldsSchema.safeParse({ ...draft, id: undefined, price: undefined, priceCents: priceCents ?? -1 });
    if (!parsed.success) {
      const errs: Record<string, string> = {};
      for (const i of parsed.error.issues) errs[String(i.path[0])] ??= i.path[0] === 'priceCents' ? 'Enter a price such as 3.50.' : i.message;
      setErrors(errs);
      return;
    }
    setErrors({});
    setBusy(true);
    const r = draft.id ? await ringup.catalogueUpdate({ id: draft.id, fields: parsed.data }) : await ringup.catalogueAdd(parsed.data);
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
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
            Imported {imported.imported} items.
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
          Discounts
        </h2>
        <form className="input-row discount-row" onSubmit={(e) => void saveLimit(e)}>
          <div className="field">
            <label htmlFor="discount-limit">A cashier's discount above this percent needs a manager's PIN</label>
            <input id="discount-limit" className="input" inputMode="numeric" value={limit} onChange={(e) => setLimit(e.target.value)} aria-invalid={limit !== '' && limitValue === null} aria-describedby={limit !== '' && limitValue === null ? 'discount-limit-error' : undefined} />
            {limit !== '' && limitValue === null && (
              <p id="discount-limit-error" className="field-error">
                A whole percent from 0 to 100.
              </p>
            )}
          </div>
          <button type="submit" className="btn btn-secondary btn-lg" disabled={limitValue === null}>
            Save
          </button>
        </form>
        {limitSaved && (
          <p className="notice notice-ok" role="status">
            {limitSaved}
          </p>
        )}
      </section>
      <section className="panel" aria-labelledby="items-title">
        <h2 id="items-title" className="section-title">
          Items ({items.filter((i) => !i.archived).length})
        </h2>
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
                    onClick={() => void ringup.catalogueArchive({ id: i.id, archived: !i.archived }).then(reload)}
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

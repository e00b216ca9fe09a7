/**
 * Catalogue (managers): the items the counter sells — add, edit, archive (never delete, so
 * past sales keep their items), import a CSV file and export the whole catalogue as one. A
 * file with any bad row imports nothing and lists each bad line; a row whose SKU an item has
 * updates that item (the answer says how many were added and updated); the quick-key mark
 * puts an item on the sale screen's grid (in pages of 24, by name). Issue 23: an item's
 * category, variants (rows of name, price, SKU), the modifier groups it offers, and whether
 * its stock is counted; the categories, modifier groups and stock panels beside it. The cart
 * rules: the discount limit a cashier may give, and the default commodity code Level 3 gives
 * a line without one (an open amount).
 * Component state only (no store): leaving the screen or switching user drops a half-typed form.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { itemFieldsSchema, type CatalogueItem, type Category, type CsvImportResult, type ModifierGroup, type TaxCategory } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { money, parseTypedAmount } from '../ui/money-format';
import { ErrorNote } from '../sales/outcome-note';
import { QUICK_KEYS_PER_PAGE } from '../cart/quick-keys';
import { saveTextFile } from '../ui/save-text-file';
import { CategoriesPanel } from './categories-panel';
import { CategorySwatch, groupRule } from './category-swatch';
import { ModifierGroupsPanel } from './modifier-groups-panel';
import { StockPanel } from './stock-panel';
import { VariantRows, type VariantDraft } from './variant-rows';
import { NameCell } from './catalogue-form-parts';

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
  categoryId: string | null;
  variants: VariantDraft[];
  modifierGroupIds: string[];
  trackStock: boolean;
  reorderLevel: string;
}
const EMPTY: Draft = {
  id: null,
  name: '',
  price: '',
  sku: '',
  productCode: '',
  unitCode: 'EA',
  commodityCode: '',
  taxCategory: 'standard',
  quickKey: true,
  categoryId: null,
  variants: [],
  modifierGroupIds: [],
  trackStock: false,
  reorderLevel: '0',
};
const typedPrice = (cents: number) => money(cents).replace(/[$,]/g, '');
const draftOf = (i: CatalogueItem): Draft => ({
  id: i.id,
  name: i.name,
  price: typedPrice(i.priceCents),
  sku: i.sku,
  productCode: i.productCode,
  unitCode: i.unitCode,
  commodityCode: i.commodityCode,
  taxCategory: i.taxCategory,
  quickKey: i.quickKey,
  categoryId: i.categoryId,
  variants: i.variants.map((v) => ({ id: v.id, name: v.name, price: typedPrice(v.priceCents), sku: v.sku })),
  modifierGroupIds: i.modifierGroupIds,
  trackStock: i.trackStock,
  reorderLevel: String(i.reorderLevel),
});
/** The export's file name: the day as the register's clock has it. */
const exportName = () => {
  const d = new Date();
  return `catalogue-${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}.csv`;
};

export function CatalogueScreen() {
  const [items, setItems] = useState<CatalogueItem[]>([]);
  const [categories, setCategories] = useState<Category[]>([]);
  const [groups, setGroups] = useState<ModifierGroup[]>([]);
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
    const [r, c, g] = await Promise.all([
      ringup.catalogueList({ includeArchived: true, search: '' }),
      ringup.catalogueCategories({ includeArchived: true }),
      ringup.catalogueModifierGroups({ includeArchived: true }),
    ]);
    if (r.ok) setItems(r.value);
    else setError(r.error.message);
    if (c.ok) setCategories(c.value);
    if (g.ok) setGroups(g.value);
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
    // The schema is strict: the draft's own keys (id, the typed prices and level) stay out of what it checks.
    const { id: _id, price: _price, variants, reorderLevel, ...fields } = draft;
    const parsed = itemFieldsSchema.safeParse({
      ...fields,
      priceCents: priceCents ?? -1,
      reorderLevel: /^\d{1,5}$/.test(reorderLevel.trim()) ? Number(reorderLevel) : -1,
      variants: variants.map((v) => ({ ...(v.id ? { id: v.id } : {}), name: v.name, priceCents: parseTypedAmount(v.price) ?? -1, sku: v.sku })),
    });
    if (!parsed.success) {
      const errs: Record<string, string> = {};
      for (const i of parsed.error.issues) {
        // A variant's field by its row ("variants.1.priceCents"); the item's by its name.
        const key = i.path[0] === 'variants' && i.path.length >= 3 ? i.path.slice(0, 3).join('.') : String(i.path[0]);
        errs[key] ??= key.endsWith('priceCents') ? 'Enter a price such as 3.50.' : key === 'reorderLevel' ? 'A whole number from 0 to 99999.' : i.message;
      }
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
      const fields = Object.fromEntries(Object.entries(r.error.fields ?? {}).map(([k, v]) => [k.replace(/^fields\./, ''), v[0] ?? r.error.message]));
      if (Object.keys(fields).length > 0) return setErrors(fields);
      return setError(r.error.message);
    }
    setMessage(`${r.value.name} saved.`);
    setDraft(EMPTY);
    await reload();
  };

  const exportFile = async () => {
    setError(null);
    const r = await ringup.catalogueExportCsv();
    if (!r.ok) return setError(r.error.message);
    saveTextFile(exportName(), r.value);
    setMessage('The catalogue was saved as a CSV file (items and variants, categories, modifier groups, stock counts).');
  };
  const toggleGroup = (id: string, on: boolean) =>
    setDraft({ ...draft, modifierGroupIds: on ? [...draft.modifierGroupIds.filter((g) => g !== id), id] : draft.modifierGroupIds.filter((g) => g !== id) });
  const activeCategories = categories.filter((c) => !c.archived);
  const activeGroups = groups.filter((g) => !g.archived);
  const categoryOf = (id: string | null) => categories.find((c) => c.id === id);

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

  const field = (k: keyof Draft, label: string, extra: { inputMode?: 'decimal' | 'numeric'; hint?: string } = {}) => (
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
            <div className="field">
              <label htmlFor="item-category">
                Category {draft.categoryId && categoryOf(draft.categoryId) ? <CategorySwatch colour={categoryOf(draft.categoryId)!.colour} /> : null}
              </label>
              <select
                id="item-category"
                className="input"
                value={draft.categoryId ?? ''}
                onChange={(e) => setDraft({ ...draft, categoryId: e.target.value || null })}
                aria-invalid={errors.categoryId !== undefined}
                aria-describedby={errors.categoryId ? 'item-category-error' : undefined}
              >
                <option value="">None (Other)</option>
                {activeCategories.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
              {errors.categoryId && (
                <p id="item-category-error" className="field-error">
                  {errors.categoryId}
                </p>
              )}
            </div>
            <label className="switch">
              <input type="checkbox" checked={draft.quickKey} onChange={(e) => setDraft({ ...draft, quickKey: e.target.checked })} />
              <span className="switch-track" aria-hidden="true" />
              Quick key on the sale screen
            </label>
            <label className="switch">
              <input type="checkbox" checked={draft.trackStock} onChange={(e) => setDraft({ ...draft, trackStock: e.target.checked })} data-testid="item-track-stock" />
              <span className="switch-track" aria-hidden="true" />
              Count stock
            </label>
            {draft.trackStock && field('reorderLevel', 'Reorder at (low stock)', { inputMode: 'numeric' })}
          </div>
          <VariantRows rows={draft.variants} errors={errors} onChange={(rows) => setDraft({ ...draft, variants: rows })} />
          <fieldset className="catalogue-fieldset" data-testid="item-groups">
            <legend>Modifier groups the counter asks for, in the order ticked</legend>
            {activeGroups.length === 0 ? (
              <p className="muted">No modifier groups yet: add them in Modifier groups below.</p>
            ) : (
              <div className="check-list">
                {activeGroups.map((g) => (
                  <label key={g.id} className="check-row">
                    <input type="checkbox" checked={draft.modifierGroupIds.includes(g.id)} onChange={(e) => toggleGroup(g.id, e.target.checked)} />
                    {g.name} <span className="muted">({groupRule(g.minChoices, g.maxChoices)})</span>
                  </label>
                ))}
              </div>
            )}
            {errors.modifierGroupIds && <p className="field-error">{errors.modifierGroupIds}</p>}
          </fieldset>
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
            <button type="button" className="btn btn-secondary btn-lg" onClick={() => void exportFile()} data-testid="csv-export">
              Export CSV
            </button>
          </div>
        </form>
        <p className="muted">
          CSV columns: name, price (such as 3.50), and optionally sku, product_code, unit_code, commodity_code, tax_category (standard or exempt), quick_key (yes or no), category,
          variant, modifier_groups (names joined by |), track_stock, stock, reorder_level, archived. A variant is a row right under its item with the same name. Categories and
          modifier groups may follow as their own tables: export a file to see the layout.
        </p>
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
      <div className="catalogue-columns">
        <CategoriesPanel categories={categories} onChanged={reload} />
        <ModifierGroupsPanel groups={groups} onChanged={reload} />
      </div>
      <StockPanel items={items} onChanged={reload} />
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
              <th scope="col">Category</th>
              <th scope="col">Variants</th>
              <th scope="col">Stock</th>
              <th scope="col">Tax</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <tr key={i.id} className={i.archived ? 'muted' : undefined}>
                <NameCell name={i.name} archived={i.archived} />
                <td>{money(i.priceCents)}</td>
                <td>{i.sku}</td>
                <td className="nowrap">
                  {categoryOf(i.categoryId) ? (
                    <>
                      <CategorySwatch colour={categoryOf(i.categoryId)!.colour} />
                      {categoryOf(i.categoryId)!.name}
                    </>
                  ) : (
                    <span className="muted">Other</span>
                  )}
                </td>
                <td>{i.variants.map((v) => `${v.name} ${money(v.priceCents)}`).join(', ')}</td>
                <td>{!i.trackStock ? <span className="muted">Not counted</span> : i.variants.length > 0 ? i.variants.map((v) => `${v.name} ${v.stock ?? 0}`).join(', ') : (i.stock ?? 0)}</td>
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

import { useState, type KeyboardEvent } from 'react';
import type { CatalogueItem } from '../../../shared/ipc/contract';
import { needsPicker } from '../../../shared/cart/line-choice';
import { money } from '../ui/money-format';
import { SCAN_FIELD_ATTR } from './use-wedge-scanner';
import { useCartStore, type CategoryTab } from './cart-store';
import { ItemPicker } from './item-picker';

/** A key's price: its own, or "from" its cheapest size. */
function priceWords(i: CatalogueItem): string {
  if (i.variants.length === 0) return money(i.priceCents);
  const low = Math.min(...i.variants.map((v) => v.priceCents));
  return i.variants.every((v) => v.priceCents === low) ? money(low) : `from ${money(low)}`;
}

/** Keys on one page of the grid: four rows of six at 1280 px, touch-sized. */
export const QUICK_KEYS_PER_PAGE = 24;

/**
 * The catalogue on the sale screen: category tabs (issue 23) over a grid of touch-sized item
 * keys, and a search box over every item by name, SKU or product code (a variant's SKU too).
 * Without categories the grid shows the items a manager marked as quick keys, as before; with
 * them, "All" shows every item (by category, then name), each category's tab its items, and
 * "Other" the items in none. A search looks through every item whatever the tab. Either list
 * runs over pages of 24 with Previous and Next, so no item is out of reach. An item with
 * variants or modifier groups opens the picker (item-picker.tsx) instead of going in at once.
 */
export function QuickKeys({ disabled }: { disabled: boolean }) {
  const { items, categories, groups, category, setCategory, picking, search, setSearch, addItem, scanNote } = useCartStore();
  const [page, setPage] = useState(0);
  const q = search.trim().toLowerCase();
  const tabbed = categories.length > 0;
  const known = new Set(categories.map((c) => c.id));
  const order = new Map(categories.map((c, i) => [c.id, i]));
  const colourOf = new Map(categories.map((c) => [c.id, c.colour]));
  const inNone = items.some((i) => i.categoryId === null || !known.has(i.categoryId));
  const tab = tabbed && (category === 'all' || known.has(category) || (category === 'none' && inNone)) ? category : 'all';
  const all = q
    ? items.filter((i) => i.name.toLowerCase().includes(q) || i.sku.toLowerCase().startsWith(q) || i.productCode.toLowerCase().startsWith(q) || i.variants.some((v) => v.sku.toLowerCase().startsWith(q)))
    : !tabbed
      ? items.filter((i) => i.quickKey)
      : tab === 'all'
        ? [...items].sort((a, b) => (order.get(a.categoryId ?? '') ?? 1e6) - (order.get(b.categoryId ?? '') ?? 1e6))
        : tab === 'none'
          ? items.filter((i) => i.categoryId === null || !known.has(i.categoryId))
          : items.filter((i) => i.categoryId === tab);
  const pages = Math.max(1, Math.ceil(all.length / QUICK_KEYS_PER_PAGE));
  const at = Math.min(page, pages - 1);
  const shown = all.slice(at * QUICK_KEYS_PER_PAGE, (at + 1) * QUICK_KEYS_PER_PAGE);
  const tabs: Array<{ id: CategoryTab; name: string; colour: string | null }> = [
    { id: 'all', name: 'All', colour: null },
    ...categories.map((c) => ({ id: c.id, name: c.name, colour: c.colour })),
    ...(inNone ? [{ id: 'none', name: 'Other', colour: null }] : []),
  ];
  const choose = (id: CategoryTab) => {
    setCategory(id);
    setPage(0);
  };
  // Arrow keys move along the tabs (one Tab stop for the row), Home and End to its ends.
  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const to = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : null;
    if (to === null) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length]!;
    choose(next.id);
    document.getElementById(`cat-tab-${next.id}`)?.focus();
  };
  const gridLabel = q ? 'Items found' : !tabbed ? 'Quick keys' : `${tabs.find((t) => t.id === tab)?.name ?? 'All'} items`;
  return (
    <div className="quick-keys-wrap">
      <div className="field">
        <label htmlFor="item-search">Find an item</label>
        <input
          id="item-search"
          className="input"
          type="search"
          value={search}
          placeholder="Name, SKU or code"
          {...{ [SCAN_FIELD_ATTR]: '' }}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(0);
          }}
        />
      </div>
      {/* A barcode scan (use-wedge-scanner.ts) says here what it did. */}
      <p className={scanNote && !scanNote.added ? 'notice notice-error' : 'sr-only'} role="status" data-testid="scan-note">
        {scanNote?.text}
      </p>
      {tabbed && !q && (
        <div className="cat-tabs" role="tablist" aria-label="Categories">
          {tabs.map((t, i) => (
            <button
              key={t.id}
              id={`cat-tab-${t.id}`}
              type="button"
              role="tab"
              className="cat-tab"
              data-colour={t.colour ?? undefined}
              aria-selected={t.id === tab}
              aria-controls="quick-keys-grid"
              tabIndex={t.id === tab ? 0 : -1}
              onClick={() => choose(t.id)}
              onKeyDown={(e) => onTabKey(e, i)}
              data-testid={`cat-tab-${t.name}`}
            >
              {t.name}
            </button>
          ))}
        </div>
      )}
      <div
        id="quick-keys-grid"
        className="quick-keys"
        role={tabbed && !q ? 'tabpanel' : 'group'}
        aria-label={gridLabel}
        {...(tabbed && !q ? { 'aria-labelledby': `cat-tab-${tab}` } : {})}
      >
        {shown.map((i) => (
          <button
            key={i.id}
            type="button"
            className="quick-key"
            data-colour={(i.categoryId && colourOf.get(i.categoryId)) || undefined}
            disabled={disabled}
            onClick={() => void addItem(i.id)}
            aria-haspopup={needsPicker(i) ? 'dialog' : undefined}
            data-testid={`quick-key-${i.sku || i.id}`}
          >
            <span className="quick-key-name">{i.name}</span>
            <span className="quick-key-price">{priceWords(i)}</span>
          </button>
        ))}
        {shown.length === 0 && (
          <p className="muted">{q ? 'No item matches.' : tabbed ? 'No items in this category yet.' : 'No quick keys yet: a manager marks items as quick keys on the Catalogue screen.'}</p>
        )}
      </div>
      {pages > 1 && (
        <div className="quick-keys-pager">
          <button type="button" className="btn btn-secondary btn-lg" disabled={at === 0} onClick={() => setPage(at - 1)}>
            Previous
          </button>
          <span className="muted" role="status" data-testid="quick-keys-page">
            Page {at + 1} of {pages} · {all.length} {q ? 'found' : tabbed ? 'items' : 'quick keys'}
          </span>
          <button type="button" className="btn btn-secondary btn-lg" disabled={at === pages - 1} onClick={() => setPage(at + 1)}>
            Next
          </button>
        </div>
      )}
      {picking && <ItemPicker key={`${picking.item.id}:${picking.variantId ?? ''}`} picking={picking} groups={groups} />}
    </div>
  );
}

import { useState } from 'react';
import { money } from '../ui/money-format';
import { SCAN_FIELD_ATTR } from './use-wedge-scanner';
import { useCartStore } from './cart-store';

/** Keys on one page of the grid: four rows of six at 1280 px, touch-sized. */
export const QUICK_KEYS_PER_PAGE = 24;

/**
 * The catalogue on the sale screen: a grid of touch-sized quick keys (items a manager
 * marked as quick keys, by name) and a search box over every item by name, SKU or product
 * code. Either list runs over pages of 24 with Previous and Next, so no item is out of reach.
 */
export function QuickKeys({ disabled }: { disabled: boolean }) {
  const { items, search, setSearch, addItem, scanNote } = useCartStore();
  const [page, setPage] = useState(0);
  const q = search.trim().toLowerCase();
  const all = q
    ? items.filter((i) => i.name.toLowerCase().includes(q) || i.sku.toLowerCase().startsWith(q) || i.productCode.toLowerCase().startsWith(q))
    : items.filter((i) => i.quickKey);
  const pages = Math.max(1, Math.ceil(all.length / QUICK_KEYS_PER_PAGE));
  const at = Math.min(page, pages - 1);
  const shown = all.slice(at * QUICK_KEYS_PER_PAGE, (at + 1) * QUICK_KEYS_PER_PAGE);
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
      <div className="quick-keys" role="group" aria-label={q ? 'Items found' : 'Quick keys'}>
        {shown.map((i) => (
          <button key={i.id} type="button" className="quick-key" disabled={disabled} onClick={() => void addItem(i.id)} data-testid={`quick-key-${i.sku || i.id}`}>
            <span className="quick-key-name">{i.name}</span>
            <span className="quick-key-price">{money(i.priceCents)}</span>
          </button>
        ))}
        {shown.length === 0 && <p className="muted">{q ? 'No item matches.' : 'No quick keys yet: a manager marks items as quick keys on the Catalogue screen.'}</p>}
      </div>
      {pages > 1 && (
        <div className="quick-keys-pager">
          <button type="button" className="btn btn-secondary btn-lg" disabled={at === 0} onClick={() => setPage(at - 1)}>
            Previous
          </button>
          <span className="muted" role="status" data-testid="quick-keys-page">
            Page {at + 1} of {pages} · {all.length} {q ? 'found' : 'quick keys'}
          </span>
          <button type="button" className="btn btn-secondary btn-lg" disabled={at === pages - 1} onClick={() => setPage(at + 1)}>
            Next
          </button>
        </div>
      )}
    </div>
  );
}

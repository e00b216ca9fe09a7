import { money } from '../lib/money-format';
import { useCartStore } from '../stores/cart-store';

/**
 * The catalogue on the sale screen: a grid of touch-sized quick keys (items a manager
 * marked as quick keys) and a search box over every item by name, SKU or product code.
 */
export function QuickKeys({ disabled }: { disabled: boolean }) {
  const { items, search, setSearch, addItem } = useCartStore();
  const q = search.trim().toLowerCase();
  const shown = q
    ? items.filter((i) => i.name.toLowerCase().includes(q) || i.sku.toLowerCase().startsWith(q) || i.productCode.toLowerCase().startsWith(q)).slice(0, 24)
    : items.filter((i) => i.quickKey).slice(0, 24);
  return (
    <div className="quick-keys-wrap">
      <div className="field">
        <label htmlFor="item-search">Find an item</label>
        <input id="item-search" className="input" type="search" value={search} placeholder="Name, SKU or code" onChange={(e) => setSearch(e.target.value)} />
      </div>
      <div className="quick-keys" role="group" aria-label={q ? 'Items found' : 'Quick keys'}>
        {shown.map((i) => (
          <button key={i.id} type="button" className="quick-key" disabled={disabled} onClick={() => void addItem(i.id)} data-testid={`quick-key-${i.sku || i.id}`}>
            <span className="quick-key-name">{i.name}</span>
            <span className="quick-key-price">{money(i.priceCents)}</span>
          </button>
        ))}
        {shown.length === 0 && <p className="muted">{q ? 'No item matches.' : 'No quick keys yet: a manager marks items as quick keys on the Catalogue screen.'}</p>}
      </div>
    </div>
  );
}

/**
 * An item's variants on the manager's form: one row each of name, price and SKU (a latte's
 * Small and Large), added and removed in place. The rows are typed text; the screen checks
 * them with the item's schema on save and shows the core's answer on the row's field
 * ("variants.1.sku": a SKU another item has). A row removed is archived by the core, not deleted.
 */
export interface VariantDraft {
  id?: string;
  name: string;
  price: string;
  sku: string;
}

interface VariantRowsProps {
  rows: VariantDraft[];
  errors: Record<string, string>;
  onChange(rows: VariantDraft[]): void;
}

export function VariantRows({ rows, errors, onChange }: VariantRowsProps) {
  const set = (i: number, patch: Partial<VariantDraft>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const input = (i: number, k: 'name' | 'price' | 'sku', label: string) => {
    const key = `variants.${i}.${k === 'price' ? 'priceCents' : k}`;
    const id = `variant-${i}-${k}`;
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          className="input"
          inputMode={k === 'price' ? 'decimal' : undefined}
          value={rows[i]![k]}
          onChange={(e) => set(i, { [k]: e.target.value })}
          aria-invalid={errors[key] !== undefined}
          aria-describedby={errors[key] ? `${id}-error` : undefined}
        />
        {errors[key] && (
          <p id={`${id}-error`} className="field-error">
            {errors[key]}
          </p>
        )}
      </div>
    );
  };
  return (
    <fieldset className="catalogue-fieldset" data-testid="variant-rows">
      <legend>Variants (sizes)</legend>
      {rows.length === 0 && <p className="muted">None: the item sells as it is. Each variant has its own price and code, and is scanned by it.</p>}
      <div className="sub-rows">
        {rows.map((_, i) => (
          <div className="sub-row" key={i}>
            {input(i, 'name', `Variant ${i + 1} name`)}
            {input(i, 'price', 'Price')}
            {input(i, 'sku', 'SKU')}
            <button type="button" className="btn btn-secondary" onClick={() => onChange(rows.filter((__, j) => j !== i))} aria-label={`Remove variant ${rows[i]!.name || i + 1}`}>
              Remove
            </button>
          </div>
        ))}
      </div>
      <div className="form-actions form-actions-tight">
        <button type="button" className="btn btn-secondary" onClick={() => onChange([...rows, { name: '', price: '', sku: '' }])} disabled={rows.length >= 12}>
          Add variant
        </button>
      </div>
    </fieldset>
  );
}

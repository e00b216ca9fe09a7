/**
 * Stock (managers): what is on hand for each counted item (per variant when it has them), the
 * low-stock list (at or under the item's reorder level, below zero first), and "Adjust count":
 * a new count from a stocktake, or a change by a number (a delivery +24, a breakage −1), with
 * why. The core writes each change to its stock ledger and the audit log ("Stock count
 * changed"); sales, returns and cancelled sales move the counts on their own.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { CatalogueItem, LowStockLine } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { ErrorNote, OutcomeNote, type Outcome } from '../sales/outcome-note';
import { TextField } from '../ui/text-field';
import { isTopmostModal } from '../ui/topmost-modal';
import { useFocusTrap } from '../ui/use-focus-trap';

interface Counted {
  itemId: string;
  variantId: string | null;
  name: string;
  stock: number;
  reorderLevel: number;
}

/** The counted items and variants, one row each, by name. */
export function countedRows(items: readonly CatalogueItem[]): Counted[] {
  return items
    .filter((i) => i.trackStock && !i.archived)
    .flatMap((i): Counted[] =>
      i.variants.length > 0
        ? i.variants.map((v) => ({ itemId: i.id, variantId: v.id, name: `${i.name} ${v.name}`, stock: v.stock ?? 0, reorderLevel: i.reorderLevel }))
        : [{ itemId: i.id, variantId: null, name: i.name, stock: i.stock ?? 0, reorderLevel: i.reorderLevel }],
    );
}

/** −1 with a real minus sign. */
const count = (n: number) => (n < 0 ? `\u2212${-n}` : String(n));

export function StockPanel({ items, onChanged }: { items: CatalogueItem[]; onChanged(): Promise<void> }) {
  const [low, setLow] = useState<LowStockLine[]>([]);
  const [adjusting, setAdjusting] = useState<Counted | null>(null);
  const [note, setNote] = useState<Outcome | null>(null);
  const rows = countedRows(items);

  useEffect(() => {
    void ringup.catalogueLowStock().then((r) => r.ok && setLow(r.value));
  }, [items]);

  return (
    <section className="panel" aria-labelledby="stock-title" data-testid="stock-panel">
      <h2 id="stock-title" className="section-title">
        Stock
      </h2>
      <OutcomeNote note={note} />
      <h3 id="low-stock-title">Low stock</h3>
      {low.length === 0 ? (
        <p className="muted" data-testid="low-stock-empty">
          Nothing at or under its reorder level.
        </p>
      ) : (
        <ul className="inline-list" aria-labelledby="low-stock-title" data-testid="low-stock">
          {low.map((l) => (
            <li key={`${l.itemId}-${l.variantId ?? ''}`}>
              <span className={l.stock < 0 ? 'stock-below' : 'stock-low'}>{l.name}</span>: {count(l.stock)} on hand (reorder at {l.reorderLevel})
            </li>
          ))}
        </ul>
      )}
      {rows.length === 0 ? (
        <p className="muted">No item counts its stock yet: tick “Count stock” on an item.</p>
      ) : (
        <table className="breakdown" data-testid="stock-table">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">On hand</th>
              <th scope="col">Reorder at</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.itemId}-${r.variantId ?? ''}`}>
                <td>{r.name}</td>
                <td className={r.stock < 0 ? 'stock-below' : r.stock <= r.reorderLevel ? 'stock-low' : undefined}>{count(r.stock)}</td>
                <td>{r.reorderLevel}</td>
                <td>
                  <button type="button" className="btn btn-quiet" aria-label={`Adjust count of ${r.name}`} onClick={() => setAdjusting(r)}>
                    Adjust count
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {adjusting && (
        <AdjustDialog
          row={adjusting}
          onClose={() => setAdjusting(null)}
          onDone={async (text) => {
            setAdjusting(null);
            setNote({ ok: true, text });
            await onChanged();
          }}
        />
      )}
    </section>
  );
}

function AdjustDialog({ row, onClose, onDone }: { row: Counted; onClose(): void; onDone(text: string): Promise<void> }) {
  const [kind, setKind] = useState<'count' | 'delta'>('count');
  const [amount, setAmount] = useState(String(row.stock));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLInputElement>('#adjust-amount')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && isTopmostModal(ref.current)) {
        e.stopPropagation();
        onClose();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      previous?.focus?.();
    };
  }, [onClose]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const t = amount.trim().replace(/^\u2212/, '-').replace(/^\+/, '');
    const n = /^-?\d{1,5}$/.test(t) ? Number(t) : null;
    const errs: Record<string, string> = {};
    if (n === null) errs.amount = kind === 'count' ? 'Enter the number on the shelf, such as 24.' : 'Enter a whole number such as 24 or -2.';
    else if (kind === 'delta' && n === 0) errs.amount = 'The change is not zero.';
    if (reason.trim() === '') errs.reason = 'Say why the count changes (delivery, stocktake, breakage…).';
    setErrors(errs);
    if (Object.keys(errs).length > 0 || n === null) return;
    setBusy(true);
    const r = await ringup.catalogueAdjustStock({
      itemId: row.itemId,
      variantId: row.variantId,
      change: kind === 'count' ? { kind: 'count', count: n } : { kind: 'delta', delta: n },
      reason: reason.trim(),
    });
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    await onDone(r.value.before === r.value.after ? `${r.value.name}: counted ${count(r.value.after)}, as it was.` : `${r.value.name}: ${count(r.value.before)} → ${count(r.value.after)}.`);
  };

  return (
    <div className="overlay">
      <div ref={ref} className="dialog" role="dialog" aria-modal="true" aria-labelledby="adjust-title">
        <h2 id="adjust-title">Adjust count: {row.name}</h2>
        <p className="muted">On hand now: {count(row.stock)}.</p>
        <form onSubmit={(e) => void save(e)}>
          <fieldset className="catalogue-fieldset">
            <legend>How</legend>
            <div className="check-list" role="radiogroup">
              <label className="check-row">
                <input type="radio" name="adjust-kind" checked={kind === 'count'} onChange={() => (setKind('count'), setAmount(String(row.stock)))} />
                New count (a stocktake)
              </label>
              <label className="check-row">
                <input type="radio" name="adjust-kind" checked={kind === 'delta'} onChange={() => (setKind('delta'), setAmount(''))} />
                Change by (a delivery, a breakage)
              </label>
            </div>
          </fieldset>
          <div className="sub-rows adjust-fields">
            <TextField
              id="adjust-amount"
              label={kind === 'count' ? 'Count on the shelf' : 'Change by (+ or −)'}
              inputMode="numeric"
              value={amount}
              error={errors.amount}
              onChange={(v) => (setAmount(v), setErrors({ ...errors, amount: '' }))}
            />
            <TextField id="adjust-reason" label="Why" value={reason} maxLength={60} error={errors.reason} onChange={(v) => (setReason(v), setErrors({ ...errors, reason: '' }))} />
          </div>
          <ErrorNote text={error} />
          <div className="dialog-actions">
            <button type="button" className="btn btn-secondary btn-lg" onClick={onClose} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
              {busy ? 'Working…' : 'Save count'}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

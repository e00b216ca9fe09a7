import { useState } from 'react';
import { DISCOUNT_COPY, discountFit, discountMoney } from '../../../shared/cart/discount-guard';
import type { DiscountChoice } from '../../../shared/ipc/contract';
import { formatPercentBp, money, parseTypedAmount } from '../ui/money-format';
import { useCartStore } from './cart-store';
import { useSessionStore } from '../auth/session-store';
import { ConfirmDialog } from '../ui/confirm-dialog';

type Mode = 'percent' | 'amount';
const MODES: ReadonlyArray<{ id: Mode; label: string }> = [
  { id: 'percent', label: '% off' },
  { id: 'amount', label: '$ off' },
];

/** "30" or "12.5" in percent mode; "2.50" or "$2.50" in dollar mode; "" → none. */
function parseDiscount(mode: Mode, text: string): DiscountChoice | null | 'bad' {
  const t = text.trim().replace(/%$/, '');
  if (t === '') return null;
  if (mode === 'amount') {
    const cents = parseTypedAmount(t);
    return cents ? { kind: 'amount', cents } : 'bad';
  }
  const m = /^(\d{1,3}(?:\.\d{1,2})?)$/.exec(t);
  const bp = m ? Math.round(Number(m[1]) * 100) : 0;
  return bp > 0 ? { kind: 'percent', basisPoints: bp } : 'bad';
}

/**
 * The cart's discount control (issue 21, point 2): what it is on (the whole sale or a line),
 * percent or dollars chosen explicitly, and what the typed figure comes to in money before it
 * applies. A discount larger than what it discounts, or all of it, is refused here in the
 * core's own words (the core checks it again: discount-guard.ts). Giving a line or the sale
 * away is Comp, its own button: a cashier's comp waits for a manager's PIN (the core asks);
 * a manager confirms first, as a whole-sale comp closes the sale at $0.00.
 */
export function CartDiscount() {
  const c = useCartStore();
  const cart = c.cart!;
  const t = cart.totals;
  const isManager = useSessionStore((s) => s.session?.user.role === 'manager');
  const [target, setTarget] = useState<'cart' | string>('cart');
  const [mode, setMode] = useState<Mode>('percent');
  const [text, setText] = useState('');
  const [confirmComp, setConfirmComp] = useState(false);
  const lineIndex = cart.lines.findIndex((l) => l.id === target);
  const line = lineIndex >= 0 ? cart.lines[lineIndex]! : null;
  const what = line ? line.name : DISCOUNT_COPY.wholeSale;
  // What a discount on the target is taken from: a line's gross, or the sale after its lines' own discounts.
  const base = line ? (t.lines[lineIndex]?.grossCents ?? 0) : t.grossCents - t.lineDiscountCents;
  const current = line ? line.discount : cart.cartDiscount;
  const parsed = parseDiscount(mode, text);
  const fit = parsed === null || parsed === 'bad' ? 'fits' : discountFit(base, parsed);
  const problem =
    parsed === 'bad'
      ? mode === 'percent'
        ? 'Type a percent, such as 10 or 12.5.'
        : 'Type a dollar amount, such as 2.50.'
      : parsed && fit === 'over'
        ? DISCOUNT_COPY.over(what, discountMoney(base, parsed), base)
        : fit === 'whole'
          ? DISCOUNT_COPY.whole(what)
          : null;
  const preview =
    parsed && parsed !== 'bad' && problem === null
      ? `${parsed.kind === 'percent' ? `${formatPercentBp(parsed.basisPoints)} off` : 'Off'} ${what} (${money(base)}): −${money(discountMoney(base, parsed))}`
      : null;
  const comp = () => {
    setConfirmComp(false);
    void c.comp(line?.id);
  };

  return (
    <form
      className="discount-control"
      aria-label="Discount"
      onSubmit={(e) => {
        e.preventDefault();
        if (parsed !== 'bad' && problem === null) void c.setDiscount(target, parsed);
      }}
    >
      <div className="input-row discount-row">
        <div className="field">
          <label htmlFor="discount-target">Discount on</label>
          <select id="discount-target" className="input" value={target} onChange={(e) => setTarget(e.target.value)}>
            <option value="cart">Whole sale</option>
            {cart.lines.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
        <div className="segmented" role="radiogroup" aria-label="Discount in">
          {MODES.map((m) => (
            <button key={m.id} type="button" role="radio" aria-checked={mode === m.id} className="segment" onClick={() => setMode(m.id)}>
              {m.label}
            </button>
          ))}
        </div>
        <div className="field">
          <label htmlFor="discount-value">{mode === 'percent' ? 'Percent off' : 'Dollars off'}</label>
          <input
            id="discount-value"
            className="input"
            inputMode="decimal"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={problem !== null}
            aria-describedby="discount-preview"
          />
        </div>
        <button type="submit" className="btn btn-secondary btn-lg" disabled={c.busy || problem !== null || (parsed === null && current === null)}>
          {parsed === null && current !== null ? 'Remove discount' : 'Apply'}
        </button>
        <button type="button" className="btn btn-secondary btn-lg" disabled={c.busy || base === 0 || current?.kind === 'comp'} onClick={() => (isManager ? setConfirmComp(true) : comp())}>
          Comp {line ? line.name : 'sale'}…
        </button>
      </div>
      <p id="discount-preview" className={problem ? 'field-error' : 'muted'} role={problem ? 'alert' : 'status'} data-testid="discount-preview">
        {problem ?? preview ?? `A percent or a dollar amount off ${what}; Comp gives it free (a manager approves).`}
      </p>
      {confirmComp && (
        <ConfirmDialog title={`Comp ${what}?`} busy={c.busy} confirmLabel={`Give ${what} free`} cancelLabel="Keep it" onCancel={() => setConfirmComp(false)} onConfirm={comp}>
          <p>{line ? `${line.name} (${money(base)}) is given away free.` : `The whole sale (${money(t.totalCents)}) is given away free: it closes at $0.00, with no payment taken.`}</p>
        </ConfirmDialog>
      )}
    </form>
  );
}

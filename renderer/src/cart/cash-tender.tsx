import { useState } from 'react';
import { money, parseTypedAmount } from '../ui/money-format';

const NOTES = [500, 1_000, 2_000, 5_000, 10_000];

/**
 * Cash: the amount handed over (typed, or a quick note button), and in a split the part
 * of the balance it pays. The change due is shown large by the cart panel once taken.
 */
export function CashTender({ balanceCents, disabled, onPay }: { balanceCents: number; disabled: boolean; onPay(tenderedCents: number): void }) {
  const [text, setText] = useState('');
  const typed = parseTypedAmount(text);
  const bad = text.trim() !== '' && (typed === null || typed === 0);
  return (
    <div className="cash-tender" role="group" aria-labelledby="cash-title">
      <h3 id="cash-title" className="subsection-title">
        Cash
      </h3>
      <div className="segmented" role="group" aria-label="Quick cash amounts">
        <button type="button" className="segment" disabled={disabled} onClick={() => onPay(balanceCents)} data-testid="cash-exact">
          Exact {money(balanceCents)}
        </button>
        {NOTES.map((n) => (
          <button key={n} type="button" className="segment" disabled={disabled} onClick={() => onPay(n)} data-testid={`cash-note-${n / 100}`}>
            {money(n)}
          </button>
        ))}
      </div>
      <form
        className="input-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed) {
            onPay(typed);
            setText('');
          }
        }}
      >
        <div className="field">
          <label htmlFor="cash-tendered">Cash handed over</label>
          <input id="cash-tendered" className="input" inputMode="decimal" value={text} onChange={(e) => setText(e.target.value)} aria-invalid={bad} aria-describedby={bad ? 'cash-error' : undefined} />
          {bad && (
            <p id="cash-error" className="field-error">
              Type the cash handed over, such as 20 or 20.00.
            </p>
          )}
        </div>
        <button type="submit" className="btn btn-secondary btn-lg cash-take" disabled={disabled || !typed}>
          Take cash
        </button>
      </form>
    </div>
  );
}

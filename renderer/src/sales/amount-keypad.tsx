import type { KeypadKey } from './amount-entry';
import { money } from '../ui/money-format';

const KEYS: readonly KeypadKey[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0', 'back'];

/**
 * The till keypad. Its buttons never take the focus on a tap (mousedown is
 * prevented), so typing on a keyboard keeps working after touching the screen.
 */
export function AmountKeypad({ cents, disabled, onKey }: { cents: number; disabled: boolean; onKey(key: KeypadKey): void }) {
  return (
    <div className="amount-entry">
      <div className="amount-display" data-testid="sale-amount">
        <span className="amount-label" id="amount-label">
          Amount
        </span>
        <output aria-labelledby="amount-label" aria-live="polite" className={`amount-value${cents === 0 ? ' amount-empty' : ''}`}>
          {money(cents)}
        </output>
      </div>
      <div className="keypad" role="group" aria-label="Amount keypad">
        {KEYS.map((k) => (
          <button
            key={k}
            type="button"
            className="key"
            disabled={disabled}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onKey(k)}
            aria-label={k === 'back' ? 'Delete last digit' : undefined}
          >
            {k === 'back' ? '⌫' : k}
          </button>
        ))}
      </div>
      <button type="button" className="btn btn-secondary btn-block" disabled={disabled || cents === 0} onMouseDown={(e) => e.preventDefault()} onClick={() => onKey('clear')}>
        Clear amount <kbd aria-hidden="true">Del</kbd>
      </button>
    </div>
  );
}

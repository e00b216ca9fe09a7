import { useState, type MouseEvent } from 'react';
import type { TipChoice } from '../lib/amount-entry';
import { money, parseTypedAmount, percentOf } from '../lib/money-format';

interface TipPickerProps {
  subtotalCents: number;
  percents: number[];
  value: TipChoice;
  disabled: boolean;
  onChange(tip: TipChoice): void;
}

/** A tap on a choice leaves the keyboard focus where it was, so Enter still moves on to the card. */
const keepFocus = (e: MouseEvent) => e.preventDefault();

/** No tip, the merchant's three percents, or a custom amount. */
export function TipPicker({ subtotalCents, percents, value, disabled, onChange }: TipPickerProps) {
  const [customText, setCustomText] = useState('');
  const [customError, setCustomError] = useState<string | null>(null);
  const isCustom = value.kind === 'custom';

  const setCustom = (text: string) => {
    setCustomText(text);
    if (!text.trim()) {
      setCustomError(null);
      onChange({ kind: 'custom', cents: 0 });
      return;
    }
    const cents = parseTypedAmount(text);
    if (cents === null) setCustomError('Enter the tip as an amount, like 2.50.');
    else {
      setCustomError(null);
      onChange({ kind: 'custom', cents });
    }
  };

  return (
    <fieldset className="tip-picker" disabled={disabled}>
      <legend>Tip</legend>
      <div className="segmented" role="radiogroup" aria-label="Tip">
        <button type="button" role="radio" aria-checked={value.kind === 'none'} className="segment"
          onMouseDown={keepFocus} onClick={() => onChange({ kind: 'none' })}>
          No tip
        </button>
        {percents.map((p) => (
          <button
            key={p}
            type="button"
            role="radio"
            aria-checked={value.kind === 'percent' && value.percent === p}
            className="segment"
          onMouseDown={keepFocus}
            onClick={() => onChange({ kind: 'percent', percent: p })}
          >
            <span className="segment-main">{p}%</span>
            <span className="segment-sub">{money(percentOf(subtotalCents, p))}</span>
          </button>
        ))}
        <button
          type="button"
          role="radio"
          aria-checked={isCustom}
          className="segment"
          onMouseDown={keepFocus}
          onClick={() => onChange({ kind: 'custom', cents: parseTypedAmount(customText) ?? 0 })}
        >
          Custom
        </button>
      </div>
      {isCustom && (
        <div className="field field-inline">
          <label htmlFor="custom-tip">Custom tip ($)</label>
          <input
            id="custom-tip"
            className="input"
            inputMode="decimal"
            autoComplete="off"
            autoFocus
            value={customText}
            placeholder="0.00"
            aria-invalid={customError ? true : undefined}
            aria-describedby={customError ? 'custom-tip-error' : undefined}
            onChange={(e) => setCustom(e.target.value)}
          />
          {customError && (
            <p id="custom-tip-error" className="field-error">
              {customError}
            </p>
          )}
        </div>
      )}
    </fieldset>
  );
}

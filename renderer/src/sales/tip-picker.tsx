import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { TipOffer } from '../../../shared/payments/tip-suggestions';
import type { TipChoice } from './amount-entry';
import { money, parseTypedAmount } from '../ui/money-format';
import { isTypingTarget } from '../shell/shortcuts';

interface TipPickerProps {
  /** The suggested tips on this sale (shared/payments/tip-suggestions.ts): percents of the store's tip base, or smart flat amounts. */
  offer: TipOffer;
  value: TipChoice;
  disabled: boolean;
  onChange(tip: TipChoice): void;
}

/** A tap on a choice leaves the keyboard focus where it was, so Enter still moves on to the card. */
const keepFocus = (e: MouseEvent) => e.preventDefault();

/**
 * No tip, the three suggested tips (the merchant's percents, or flat amounts below the smart-tip threshold), or a custom amount. Digits belong to the amount on
 * the sale screen, so the keys 0–4 pick a tip only while the choices have the keyboard — T
 * takes it there (Esc gives it back) — and the buttons show their key only then: what is
 * printed is always what a key does.
 */
export function TipPicker({ offer, value, disabled, onChange }: TipPickerProps) {
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

  // The choices in order; 0 is No tip, 1–3 the suggestions, 4 Custom (the keys shown on the buttons).
  const suggested = offer.suggestions;
  const choices: Array<{ key: string; tip: TipChoice; main: string; sub?: string; checked: boolean }> = [
    { key: '0', tip: { kind: 'none' }, main: 'No tip', checked: value.kind === 'none' },
    ...suggested.map((s, i) =>
      s.kind === 'percent'
        ? { key: String(i + 1), tip: { kind: 'percent', percent: s.percent } as TipChoice, main: `${s.percent}%`, sub: money(s.cents), checked: value.kind === 'percent' && value.percent === s.percent }
        : { key: String(i + 1), tip: { kind: 'flat', cents: s.cents } as TipChoice, main: money(s.cents), checked: value.kind === 'flat' && value.cents === s.cents },
    ),
    { key: String(suggested.length + 1), tip: { kind: 'custom', cents: parseTypedAmount(customText) ?? 0 }, main: 'Custom', checked: isCustom },
  ];
  const groupRef = useRef<HTMLDivElement>(null);
  const checkedIndex = Math.max(0, choices.findIndex((c) => c.checked));

  // T (as printed on the legend) takes the keyboard to the tip choices, from anywhere on the sale screen but a text field or a dialog.
  useEffect(() => {
    if (disabled) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || (e.key !== 't' && e.key !== 'T')) return;
      if (isTypingTarget(e.target) || document.querySelector('[aria-modal="true"]')) return;
      e.preventDefault();
      groupRef.current?.querySelector<HTMLButtonElement>('[role="radio"][tabindex="0"]')?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [disabled]);

  const pick = (i: number, focus: boolean) => {
    const c = choices[(i + choices.length) % choices.length]!;
    onChange(c.tip);
    if (focus) groupRef.current?.querySelectorAll<HTMLButtonElement>('[role="radio"]')[(i + choices.length) % choices.length]?.focus();
  };

  // Radio-group keys while the picker has the focus: arrows move and choose, digits pick the choice marked on its button.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape') {
      // Back to the amount: the sale screen's digits type again.
      e.preventDefault();
      groupRef.current?.closest<HTMLElement>('[data-screen-focus]')?.focus({ preventScroll: true });
      return;
    }
    const at = choices.findIndex((c) => c.checked);
    let next: number | null = null;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = at + 1;
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = at - 1;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = choices.length - 1;
    else {
      const i = choices.findIndex((c) => c.key === e.key);
      if (i >= 0) next = i;
    }
    if (next === null) return;
    e.preventDefault();
    e.stopPropagation();
    pick(next, true);
  };

  return (
    <fieldset className="tip-picker" disabled={disabled}>
      <legend>
        Tip{' '}
        <kbd aria-hidden="true" data-testid="tip-key-hint" title="Press T to choose the tip with the keys 0–4">
          T
        </kbd>
      </legend>
      <div className="segmented" role="radiogroup" aria-label="Tip" ref={groupRef} onKeyDown={onKeyDown}>
        {choices.map((c, i) => (
          <button
            key={c.main}
            type="button"
            role="radio"
            aria-checked={c.checked}
            tabIndex={i === checkedIndex ? 0 : -1}
            aria-keyshortcuts={c.key}
            className="segment"
            onMouseDown={keepFocus}
            onClick={() => onChange(c.tip)}
          >
            <span className="segment-main">
              {c.main} <kbd aria-hidden="true">{c.key}</kbd>
            </span>
            {c.sub && <span className="segment-sub">{c.sub}</span>}
          </button>
        ))}
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

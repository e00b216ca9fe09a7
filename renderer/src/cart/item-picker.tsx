import { useEffect, useMemo, useRef, useState } from 'react';
import type { ModifierGroup } from '../../../shared/ipc/contract';
import { CHOICE_COPY, groupRuleWords, groupsOfItem, optionPriceWords, resolveChoice } from '../../../shared/cart/line-choice';
import { isTopmostModal } from '../ui/topmost-modal';
import { useFocusTrap } from '../ui/use-focus-trap';
import { money } from '../ui/money-format';
import { useCartStore, type Picking } from './cart-store';

/**
 * The picker (issue 23): tapping an item with variants or modifier groups opens this sheet.
 * The variant comes first as big buttons (one is required), then each group with its rule in
 * words ("Choose 1", "Up to 3") and its options with what they add ("+$0.50"). The running
 * price and whether Add may be pressed come from the same rules the core checks
 * (shared/cart/line-choice.ts), so what the sheet allows, the core takes.
 *
 * A group of at most one choice behaves as a radio group (another tap moves the choice); a
 * group of more says so in a sentence when its limit is reached. Keyboard: Tab moves, Space
 * chooses, Enter adds (when allowed), Escape closes without adding.
 */
export function ItemPicker({ picking, groups }: { picking: Picking; groups: readonly ModifierGroup[] }) {
  const { item } = picking;
  const busy = useCartStore((s) => s.busy);
  const pickError = useCartStore((s) => s.pickError);
  const [variantId, setVariantId] = useState<string | null>(picking.variantId);
  const [chosen, setChosen] = useState<string[]>([]);
  const [limitNote, setLimitNote] = useState<string | null>(null);
  const offered = useMemo(() => groupsOfItem(item, groups), [item, groups]);
  const check = resolveChoice(item, groups, { variantId, optionIds: chosen });
  const dialogRef = useRef<HTMLDivElement>(null);
  const firstRef = useRef<HTMLButtonElement>(null);
  useFocusTrap(dialogRef);

  const add = async () => {
    if (!check.ok || busy) return;
    await useCartStore.getState().addPicked(variantId, chosen);
  };
  // Latest `add` for the key handler without re-binding it on each choice.
  const addRef = useRef(add);
  addRef.current = add;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    firstRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (!isTopmostModal(dialogRef.current)) return;
      if (e.key === 'Escape') {
        e.stopPropagation();
        useCartStore.getState().closePicker();
      } else if (e.key === 'Enter' && !(e.target instanceof HTMLElement && e.target.dataset.pickerCancel !== undefined)) {
        // Enter adds wherever the focus is in the sheet (Space chooses the focused option), except on Cancel, which it presses.
        e.preventDefault();
        e.stopPropagation();
        void addRef.current();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      previous?.focus?.();
    };
  }, []);

  const toggle = (g: ModifierGroup, optionId: string) => {
    setLimitNote(null);
    const inGroup = new Set(g.options.map((o) => o.id));
    if (chosen.includes(optionId)) return setChosen(chosen.filter((id) => id !== optionId));
    const already = chosen.filter((id) => inGroup.has(id));
    // One choice at most: the tap moves it.
    if (g.maxChoices === 1) return setChosen([...chosen.filter((id) => !inGroup.has(id)), optionId]);
    if (already.length >= g.maxChoices) return setLimitNote(CHOICE_COPY.limitReached(g.name, g.maxChoices));
    setChosen([...chosen, optionId]);
  };

  const variantPrice = item.variants.find((v) => v.id === variantId)?.priceCents ?? item.priceCents;
  const running = check.ok ? check.line.unitCents : variantPrice + offered.flatMap((g) => g.options).filter((o) => chosen.includes(o.id)).reduce((a, o) => a + o.priceCents, 0);
  const titleId = 'picker-title';
  return (
    <div className="overlay">
      <div ref={dialogRef} className="dialog picker" role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid="item-picker">
        <h2 id={titleId}>{item.name}</h2>
        {item.variants.length > 0 && (
          <fieldset className="picker-group">
            <legend>
              <span className="picker-group-name">Which one</span> <span className="picker-rule">Choose 1</span>
            </legend>
            <div className="picker-options picker-variants" role="radiogroup" aria-label={`${item.name}: choose 1`}>
              {item.variants.map((v, i) => (
                <button
                  key={v.id}
                  ref={i === 0 ? firstRef : undefined}
                  type="button"
                  role="radio"
                  aria-checked={variantId === v.id}
                  className="picker-option picker-variant"
                  onClick={() => setVariantId(v.id)}
                  data-testid={`pick-variant-${v.name}`}
                >
                  <span className="picker-option-name">{v.name}</span>
                  <span className="picker-option-price">{money(v.priceCents)}</span>
                </button>
              ))}
            </div>
          </fieldset>
        )}
        {offered.map((g, gi) => {
          const radio = g.maxChoices === 1;
          return (
            <fieldset key={g.id} className="picker-group">
              <legend>
                <span className="picker-group-name">{g.name}</span> <span className="picker-rule">{groupRuleWords(g)}</span>
              </legend>
              <div className="picker-options" role={radio ? 'radiogroup' : 'group'} aria-label={`${g.name}: ${groupRuleWords(g)}`}>
                {g.options.map((o, oi) => {
                  const on = chosen.includes(o.id);
                  return (
                    <button
                      key={o.id}
                      ref={item.variants.length === 0 && gi === 0 && oi === 0 ? firstRef : undefined}
                      type="button"
                      {...(radio ? { role: 'radio', 'aria-checked': on } : { 'aria-pressed': on })}
                      className="picker-option"
                      onClick={() => toggle(g, o.id)}
                      data-testid={`pick-option-${o.name}`}
                    >
                      <span className="picker-option-name">{o.name}</span>
                      {o.priceCents > 0 && <span className="picker-option-price">{optionPriceWords(o.priceCents)}</span>}
                    </button>
                  );
                })}
              </div>
            </fieldset>
          );
        })}
        <p className="notice notice-info picker-limit" role="status" hidden={!limitNote} data-testid="picker-limit">
          {limitNote}
        </p>
        {pickError && (
          <p className="notice notice-error" role="alert" data-testid="picker-error">
            {pickError}
          </p>
        )}
        <div className="picker-foot">
          {/* What is still missing, in words, while Add waits for it. */}
          <p className="muted picker-missing" id="picker-missing" data-testid="picker-missing">
            {check.ok ? (
              <span className="picker-keys">
                <kbd>Enter</kbd> adds · <kbd>Esc</kbd> closes
              </span>
            ) : (
              check.message
            )}
          </p>
          <div className="picker-foot-row">
            <p className="picker-price" aria-live="polite">
              <span className="muted">Price</span> <strong data-testid="picker-price">{money(running)}</strong>
            </p>
            <div className="picker-actions">
              <button type="button" className="btn btn-secondary btn-lg" data-picker-cancel onClick={() => useCartStore.getState().closePicker()}>
                Cancel
              </button>
              <button type="button" className="btn btn-primary btn-lg" disabled={!check.ok || busy} aria-describedby="picker-missing" onClick={() => void add()} data-testid="picker-add">
                {busy ? 'Adding…' : `Add ${money(running)}`}
              </button>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}

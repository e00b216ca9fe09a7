import { useEffect, useRef } from 'react';
import { isTypingTarget } from '../shell/shortcuts';
import { dialogOpen } from './scanned-code';
import { WEDGE_IDLE, wedgeStep, type WedgeState } from './wedge-scan';

/** How long held keys wait for the next key of their burst before they go on as a person's. */
const HELD_KEYS_WAIT_MS = 400;

/** The one text field a scan may come through (the sale screen's item search): marked with this attribute. */
export const SCAN_FIELD_ATTR = 'data-scan-field';

interface WedgeScannerOptions {
  /** Listening at all (the sale screen with a catalogue, nothing being charged). */
  enabled: boolean;
  /** The sale screen's one handling of a scanned code (scanned-code.ts). */
  onScan(code: string): void;
  /** The keypad's amount: read before a burst, put back after a scan (its digits went there). */
  readAmount(): number;
  restoreAmount(cents: number): void;
}

/** Where a key lands: the keypad (no field has the focus), the item search field, or somewhere a scan never comes from. */
function placeOf(target: EventTarget | null): 'keypad' | HTMLInputElement | null {
  // A question, a PIN or a picker is open: its keys are its own.
  if (dialogOpen()) return null;
  if (target instanceof HTMLInputElement && target.hasAttribute(SCAN_FIELD_ATTR)) return target;
  // Any other field (an amount, the cash handed over, a card number, a discount): never.
  if (isTypingTarget(target)) return null;
  // The tip choices take digits as choices: a scan never starts there.
  if (target instanceof Element && target.closest('[role="radiogroup"]')) return null;
  return 'keypad';
}

/** Sets a React-controlled input's value as typing would (React hears the input event). */
function setFieldValue(input: HTMLInputElement, value: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * A keyboard-wedge scanner on the sale screen (issue 21, point 9): one document-level key
 * listener (capture, ahead of the screen's own) feeds wedge-scan.ts. A scan adds its code,
 * clears what its keys typed and keeps its Enter from the screen (which would go to the
 * card form). Keys go where they were going while a burst may still be a person typing:
 * - no field focused (the keypad): digits reach the amount, which is put back after a scan;
 *   a burst's other characters (letters are shortcuts: T, ?) are held back and sent on, in
 *   order among themselves, when the burst turns out not to be a scan;
 * - the item search field: the characters type there, and its text is put back after a scan;
 * - any other field, the tip choices or an open dialog: the listener stays out of the way.
 * Simplification: a held letter is sent on after the digits of its burst, not between them
 * (no person types letters and digits that fast on this screen).
 */
export function useWedgeScanner({ enabled, onScan, readAmount, restoreAmount }: WedgeScannerOptions): void {
  // The latest callbacks, without re-subscribing on every render.
  const latest = useRef({ onScan, readAmount, restoreAmount });
  useEffect(() => {
    latest.current = { onScan, readAmount, restoreAmount };
  }, [onScan, readAmount, restoreAmount]);

  useEffect(() => {
    if (!enabled) return;
    let state: WedgeState = WEDGE_IDLE;
    let place: 'keypad' | HTMLInputElement | null = null;
    let before: { cents: number; text: string; focus: Element | null } | null = null;
    let held: Array<{ target: EventTarget; init: KeyboardEventInit }> = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const sentOn = new WeakSet<Event>();

    const sendHeld = () => {
      clearTimeout(timer);
      const keys = held;
      held = [];
      for (const k of keys) {
        const ev = new KeyboardEvent('keydown', k.init);
        sentOn.add(ev);
        k.target.dispatchEvent(ev);
      }
    };
    const reset = () => {
      sendHeld();
      state = WEDGE_IDLE;
      place = null;
      before = null;
    };

    const onKey = (e: KeyboardEvent) => {
      if (sentOn.has(e) || e.isComposing || e.altKey || e.ctrlKey || e.metaKey) return;
      const r = wedgeStep(state, e.key, e.timeStamp);
      if (r.step.kind === 'ignore') return;
      if (r.step.kind === 'first') {
        sendHeld();
        place = placeOf(e.target);
        state = place === null ? WEDGE_IDLE : r.state;
        // What the burst's keys will change, as it was before its first key.
        before = place === null ? null : { cents: latest.current.readAmount(), text: place === 'keypad' ? '' : place.value, focus: document.activeElement };
        return;
      }
      if (place === null || before === null) return reset();
      if (r.step.kind === 'burst') {
        state = r.state;
        if (place === 'keypad' && !/^\d$/.test(e.key)) {
          e.preventDefault();
          e.stopImmediatePropagation();
          held.push({ target: e.target ?? document, init: { key: e.key, code: e.code, shiftKey: e.shiftKey, bubbles: true, cancelable: true } });
        }
        // Held keys wait while the burst goes on; when no key comes for a while (by this window's
        // clock, which a busy screen slows: hence not the burst's own 150 ms), they were a person's and go on.
        if (held.length > 0) {
          clearTimeout(timer);
          timer = setTimeout(reset, HELD_KEYS_WAIT_MS);
        }
        return;
      }
      if (r.step.kind === 'scan') {
        e.preventDefault();
        e.stopImmediatePropagation();
        clearTimeout(timer);
        held = [];
        if (place === 'keypad') latest.current.restoreAmount(before.cents);
        else setFieldValue(place, before.text);
        if (before.focus instanceof HTMLElement && document.activeElement !== before.focus) before.focus.focus({ preventScroll: true });
        state = WEDGE_IDLE;
        place = null;
        before = null;
        latest.current.onScan(r.step.code);
        return;
      }
      reset();
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      clearTimeout(timer);
    };
  }, [enabled]);
}

/**
 * Keyboard-wedge barcode scanners (issue 21, point 9): the scanner is a keyboard that types
 * the code as a burst of keys, each hard on the previous one, and presses Enter. Told apart
 * from a person by timing alone, as a pure step over (key, timeStamp) pairs so the rule is
 * tested with timestamps the test controls (wedge-scan.test.ts); use-wedge-scanner.ts wires
 * it to the sale screen's keys.
 *
 * The rule: at least 4 characters, then Enter, 50 ms a key or less on average from the
 * first key to Enter, and no gap longer than 150 ms. Scanners send a key every few ms; a fast
 * typist averages 100 ms a key or more over five keys. The average decides; the single-gap
 * limit only tells one burst from the next, and is loose because a browser busy drawing a
 * key's effect (the amount, the search field filtering the catalogue) hands the next keys
 * over late: on a busy two-core test machine keys sent 5 ms apart arrived up to 108 ms apart,
 * 27 ms apart on average. A code of
 * digits only must have at least 8 (EAN-8, UPC-A, EAN-13, GTIN-14 all do): a quick run of
 * up to 7 digits and Enter is an amount typed on the keypad (the counter's end-to-end tests,
 * and a person's key rollover, type those fast). Simplification: a scanner set to send a
 * key slower than every 50 ms is not recognised; its code is typed as a person's would be.
 */

export const WEDGE_RULES = {
  /** Longest gap between two keys of one burst, and between its last key and Enter. */
  maxGapMs: 150,
  /** Longest average gap over the whole burst, first key to Enter. */
  maxMeanGapMs: 50,
  minLength: 4,
  /** A code of digits only is at least this long (the shortest retail barcode, EAN-8). */
  minDigitsOnly: 8,
} as const;

export interface WedgeState {
  /** The characters of the burst so far. */
  text: string;
  /** When its first key came (the event's timeStamp). */
  firstTs: number;
  /** When its last key came, or null when no burst is running. */
  lastTs: number | null;
}

export const WEDGE_IDLE: WedgeState = { text: '', firstTs: 0, lastTs: null };

/**
 * What one key is:
 * - `first`: a character after a pause: a burst may start here (it goes where it was going);
 * - `burst`: a character hard on the previous one (the caller may hold it back while the burst may be a scan);
 * - `scan`: Enter ending a burst that is a scan, with its code;
 * - `end`: any other key: a burst running is over and was not a scan;
 * - `ignore`: Shift (a scanner presses it for capitals): changes nothing.
 */
export type WedgeStep = { kind: 'first' } | { kind: 'burst' } | { kind: 'scan'; code: string } | { kind: 'end' } | { kind: 'ignore' };

/** Whether a burst's text is long enough to be a code rather than quick typing. */
export function isScanCode(text: string): boolean {
  if (text.length < WEDGE_RULES.minLength) return false;
  return !/^\d+$/.test(text) || text.length >= WEDGE_RULES.minDigitsOnly;
}

/** One key (KeyboardEvent.key) at `ts` (its timeStamp, ms): the next state and what the key is. */
export function wedgeStep(state: WedgeState, key: string, ts: number): { state: WedgeState; step: WedgeStep } {
  if (key === 'Shift') return { state, step: { kind: 'ignore' } };
  const inTime = state.lastTs !== null && ts - state.lastTs <= WEDGE_RULES.maxGapMs;
  if (key === 'Enter') {
    const quick = inTime && (ts - state.firstTs) / state.text.length <= WEDGE_RULES.maxMeanGapMs;
    return { state: WEDGE_IDLE, step: quick && isScanCode(state.text) ? { kind: 'scan', code: state.text } : { kind: 'end' } };
  }
  // A printable character is one code point long; every named key (Backspace, F2, ArrowUp…) ends a burst.
  if ([...key].length !== 1) return { state: WEDGE_IDLE, step: { kind: 'end' } };
  if (inTime) return { state: { ...state, text: state.text + key, lastTs: ts }, step: { kind: 'burst' } };
  return { state: { text: key, firstTs: ts, lastTs: ts }, step: { kind: 'first' } };
}

/**
 * What the sale screen does with a scanned code, whichever scanner read it (issue 23, point 5):
 * a keyboard-wedge scanner's burst of keys (use-wedge-scanner.ts) and a serial scanner's read
 * pushed by the core (use-serial-scanner.ts) both end in `takeScannedCode`, so both add items by
 * one rule: only while the sale screen takes scans (a catalogue, nothing being charged, lines not
 * fixed: the screen's `open`) and no dialog is open (a question, a PIN, a picker keeps the screen
 * as it is). Other screens do not listen at all. A serial scanner types nothing, so unlike the
 * wedge it does not care which field has the focus.
 */
/** A question, a PIN or a picker is open: its keys and the screen behind it are its own. */
export function dialogOpen(): boolean {
  return document.querySelector('[aria-modal="true"]') !== null;
}

export interface ScanIntake {
  /** The sale screen takes scans now. */
  open: boolean;
  /** Adds the item with this SKU or product code (the cart's cart:add-code), saying what it did beside the item search. */
  add(code: string): Promise<void>;
  /** Says a sentence where a code no item has is said (the cart store's scan note). */
  note(text: string): void;
}

/** Adds the code when the screen takes scans; answers whether it was taken. */
export function takeScannedCode(code: string, intake: Pick<ScanIntake, 'open' | 'add'>): boolean {
  if (!intake.open || dialogOpen()) return false;
  void intake.add(code);
  return true;
}

/** A serial scanner's read that is no code (noise, a run-on line): said where a code no item has is said, by the same rule. */
export function sayScanRefused(message: string, intake: Pick<ScanIntake, 'open' | 'note'>): boolean {
  if (!intake.open || dialogOpen()) return false;
  intake.note(message);
  return true;
}

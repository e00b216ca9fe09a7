/**
 * The sale screen's one handling of a scanned code (issue 23, point 5: renderer/src/cart/scanned-code.ts),
 * which the keyboard wedge and the serial scanner both call: a code is added only while the
 * screen takes scans and no dialog is open; a serial scanner's refusal is said by the same rule.
 * The document is a stand-in answering whether an `[aria-modal="true"]` element is there.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sayScanRefused, takeScannedCode } from '../../renderer/src/cart/scanned-code';

let modal = false;
const g = globalThis as { document?: unknown };
beforeEach(() => {
  modal = false;
  g.document = { querySelector: (sel: string) => (sel === '[aria-modal="true"]' && modal ? {} : null) };
});
afterEach(() => {
  delete g.document;
});

function intake(open: boolean) {
  const added: string[] = [];
  const notes: string[] = [];
  return { added, notes, open, add: async (c: string) => void added.push(c), note: (t: string) => void notes.push(t) };
}

it('adds a code while the sale screen takes scans, and not while it does not', () => {
  const on = intake(true);
  expect(takeScannedCode('4006381333931', on)).toBe(true);
  expect(on.added).toEqual(['4006381333931']);
  const off = intake(false);
  expect(takeScannedCode('4006381333931', off)).toBe(false);
  expect(off.added).toEqual([]);
});

it('a dialog open keeps the screen as it is: no code added, no refusal said', () => {
  modal = true;
  const on = intake(true);
  expect(takeScannedCode('LAT-12', on)).toBe(false);
  expect(sayScanRefused('noise', on)).toBe(false);
  expect(on.added).toEqual([]);
  expect(on.notes).toEqual([]);
  modal = false;
  expect(sayScanRefused('noise', on)).toBe(true);
  expect(on.notes).toEqual(['noise']);
});

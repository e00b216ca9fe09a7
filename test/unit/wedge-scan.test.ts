/**
 * The keyboard-wedge rule (issue 21, point 9) over (key, timeStamp) pairs whose times the
 * test sets: a scanner's burst and Enter is a scan, also with a late key or two in it; a
 * person's typing, a short burst, one slow on average,
 * a quick amount of up to 7 digits, a burst cut by another key, or an Enter that comes late
 * is not.
 */
import { describe, expect, it } from 'vitest';
import { WEDGE_IDLE, WEDGE_RULES, wedgeStep, type WedgeStep } from '../../renderer/src/cart/wedge-scan';

/** Feeds keys at the given times; answers each key's step. */
function feed(keys: Array<[string, number]>): WedgeStep[] {
  let state = WEDGE_IDLE;
  return keys.map(([key, ts]) => {
    const r = wedgeStep(state, key, ts);
    state = r.state;
    return r.step;
  });
}

/** `text` then Enter, a key every `gap` ms from `start`. */
const typed = (text: string, gap: number, start = 1_000): Array<[string, number]> => [...[...text].map((k, i): [string, number] => [k, start + i * gap]), ['Enter', start + text.length * gap]];

const last = (steps: WedgeStep[]) => steps.at(-1);

describe('wedgeStep', () => {
  it('a scanner: an EAN-13 and a SKU with capitals (Shift between keys), a key every 8 ms and Enter, are scans', () => {
    const ean = feed(typed('4006381333931', 8));
    expect(ean.map((s) => s.kind)).toEqual(['first', ...Array(12).fill('burst'), 'scan']);
    expect(last(ean)).toEqual({ kind: 'scan', code: '4006381333931' });
    const sku = feed([['Shift', 995], ['L', 1_000], ['Shift', 1_002], ['A', 1_004], ['T', 1_009], ['-', 1_015], ['1', 1_020], ['2', 1_026], ['Enter', 1_031]]);
    expect(last(sku)).toEqual({ kind: 'scan', code: 'LAT-12' });
  });

  it('the limits: 50 ms a key on average is a scan, 51 ms is not; a key 150 ms late is in the burst, 151 ms is not; 4 characters are a code, 3 are not', () => {
    expect(last(feed(typed('AB12', WEDGE_RULES.maxMeanGapMs)))).toEqual({ kind: 'scan', code: 'AB12' });
    expect(last(feed(typed('AB12', WEDGE_RULES.maxMeanGapMs + 1)))).toEqual({ kind: 'end' });
    // A browser busy drawing hands one key over late: still a scan, when the burst is quick on average.
    const late = (gap: number) => feed([['S', 0], ['C', 10], ['N', 10 + gap], ['-', 20 + gap], ['0', 30 + gap], ['0', 40 + gap], ['4', 50 + gap], ['2', 60 + gap], ['Enter', 70 + gap]]);
    expect(last(late(WEDGE_RULES.maxGapMs))).toEqual({ kind: 'scan', code: 'SCN-0042' });
    // One key later than that breaks the burst: what follows is a burst of its own.
    expect(late(WEDGE_RULES.maxGapMs + 1).map((s) => s.kind)).toEqual(['first', 'burst', 'first', 'burst', 'burst', 'burst', 'burst', 'burst', 'scan']);
    expect(last(late(WEDGE_RULES.maxGapMs + 1))).toEqual({ kind: 'scan', code: 'N-0042' });
    expect(last(feed(typed('AB1', 5)))).toEqual({ kind: 'end' });
    // A fast typist: keys 70 ms apart, each within the single-gap limit, but slow on average.
    expect(last(feed(typed('LATTE-12', 70)))).toEqual({ kind: 'end' });
    // A person's few quick keys (rollover) among slower ones: slow on average.
    expect(last(feed([['L', 0], ['A', 20], ['T', 140], ['T', 160], ['E', 290], ['Enter', 400]]))).toEqual({ kind: 'end' });
  });

  it('digits only: a quick amount of up to 7 digits and Enter is typing; 8 digits (EAN-8) are a scan', () => {
    for (const amount of ['1500', '150000', '1000001']) expect(last(feed(typed(amount, 2)))).toEqual({ kind: 'end' });
    expect(last(feed(typed('96385074', 6)))).toEqual({ kind: 'scan', code: '96385074' });
  });

  it('a person: a key every 160 ms is never a burst, however long', () => {
    const steps = feed(typed('LATTE-12', 160));
    expect(steps.map((s) => s.kind)).toEqual([...Array(8).fill('first'), 'end']);
  });

  it('an Enter late after a quick burst, or a burst cut by another key, is not a scan', () => {
    expect(last(feed([...typed('LATTE', 5).slice(0, 5), ['Enter', 1_020 + WEDGE_RULES.maxGapMs + 1]]))).toEqual({ kind: 'end' });
    const cut = feed([['L', 0], ['A', 5], ['Backspace', 10], ['T', 15], ['T', 20], ['E', 25], ['Enter', 30]]);
    expect(cut.map((s) => s.kind)).toEqual(['first', 'burst', 'end', 'first', 'burst', 'burst', 'end']);
  });

  it('after a scan the next burst starts fresh: two scans in a row are two codes', () => {
    const steps = feed([...typed('ABCD', 5, 0), ...typed('WXYZ', 5, 400)]);
    expect(steps.filter((s) => s.kind === 'scan')).toEqual([
      { kind: 'scan', code: 'ABCD' },
      { kind: 'scan', code: 'WXYZ' },
    ]);
  });
});

/**
 * The keypad's amount: digits shift in from the right like a till ("1","2","5","0"
 * → $12.50), so a cashier never types a decimal point.
 */
import { MAX_AMOUNT_CENTS } from '../../../shared/ipc/contract';

export type KeypadKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '00' | 'back' | 'clear';

export function applyKey(cents: number, key: KeypadKey): number {
  if (key === 'clear') return 0;
  if (key === 'back') return Math.floor(cents / 10);
  const next = key === '00' ? cents * 100 : cents * 10 + Number(key);
  return next > MAX_AMOUNT_CENTS ? cents : next;
}

export type TipChoice = { kind: 'none' } | { kind: 'percent'; percent: number } | { kind: 'custom'; cents: number };

export interface SaleTotals {
  subtotalCents: number;
  taxCents: number;
  tipCents: number;
  totalCents: number;
}

/** Tax on the subtotal; tip on the subtotal before tax (the usual US practice). */
export function saleTotals(subtotalCents: number, taxOn: boolean, taxRateBp: number, tip: TipChoice): SaleTotals {
  const taxCents = taxOn ? Math.floor((subtotalCents * taxRateBp + 5000) / 10000) : 0;
  const tipCents =
    tip.kind === 'percent' ? Math.floor((subtotalCents * Math.round(tip.percent * 100) + 5000) / 10000) : tip.kind === 'custom' ? tip.cents : 0;
  return { subtotalCents, taxCents, tipCents, totalCents: subtotalCents + taxCents + tipCents };
}

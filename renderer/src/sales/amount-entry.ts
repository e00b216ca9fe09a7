/**
 * The keypad's amount: digits shift in from the right like a till ("1","2","5","0"
 * → $12.50), so a cashier never types a decimal point.
 */
import { MAX_AMOUNT_CENTS } from '../../../shared/ipc/contract';
import { percentTipCents, tipBaseCents, type TipBase } from '../../../shared/payments/tip-suggestions';

export type KeypadKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '00' | 'back' | 'clear';

export function applyKey(cents: number, key: KeypadKey): number {
  if (key === 'clear') return 0;
  if (key === 'back') return Math.floor(cents / 10);
  const next = key === '00' ? cents * 100 : cents * 10 + Number(key);
  return next > MAX_AMOUNT_CENTS ? cents : next;
}

/** `flat`: one of the store's smart-tip amounts (shared/payments/tip-suggestions.ts). */
export type TipChoice = { kind: 'none' } | { kind: 'percent'; percent: number } | { kind: 'flat'; cents: number } | { kind: 'custom'; cents: number };

export interface SaleTotals {
  subtotalCents: number;
  taxCents: number;
  tipCents: number;
  totalCents: number;
}

/** The chosen tip in cents: a percent on the store's tip base (before or after tax), or the flat or custom amount. */
export function tipCentsOf(subtotalCents: number, taxCents: number, tip: TipChoice, tipBase: TipBase): number {
  return tip.kind === 'percent' ? percentTipCents(tipBaseCents(subtotalCents, taxCents, tipBase), tip.percent) : tip.kind === 'none' ? 0 : tip.cents;
}

/** Tax on the subtotal; the tip on the store's tip base. */
export function saleTotals(subtotalCents: number, taxOn: boolean, taxRateBp: number, tip: TipChoice, tipBase: TipBase): SaleTotals {
  const taxCents = taxOn ? Math.floor((subtotalCents * taxRateBp + 5000) / 10000) : 0;
  const tipCents = tipCentsOf(subtotalCents, taxCents, tip, tipBase);
  return { subtotalCents, taxCents, tipCents, totalCents: subtotalCents + taxCents + tipCents };
}

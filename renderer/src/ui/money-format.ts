/**
 * Cashier-facing money text. Amounts are integer cents everywhere in the renderer;
 * formatting is textual (no division into floats).
 */
import { dollars } from '../../../shared/refund-limit';

/** 123456 → "$1,234.56"; negative keeps a leading minus (one definition, shared with the core's sentences). */
export const money = dollars;

/** A typed amount ("12.5", "$12.50", "12") → cents, or null. */
export function parseTypedAmount(text: string): number | null {
  const t = text.trim().replace(/^\$/, '').replace(/,/g, '');
  const m = /^(\d{1,9})(?:\.(\d{0,2}))?$/.exec(t);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Basis points of cents (825 bp = 8.25 %), rounded half up. */
export function basisPointsOf(cents: number, bp: number): number {
  return Math.floor((cents * bp + 5000) / 10000);
}

export function formatPercentBp(bp: number): string {
  const whole = Math.floor(bp / 100);
  const frac = bp % 100;
  return frac === 0 ? `${whole}%` : `${whole}.${String(frac).padStart(2, '0').replace(/0$/, '')}%`;
}

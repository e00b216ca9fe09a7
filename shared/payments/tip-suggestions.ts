/**
 * The suggested tips (issue 21, point 1), computed once for every place a tip is offered: the
 * sale screen's and the cart's choices, what the terminal is told to show (its base and, for
 * smart tips, its flat amounts) on line and on a store-and-forward read, and the largest tip a
 * terminal may report back.
 *
 * The store decides the base: `before-tax` (the default, as Toast's) takes a percent of the
 * pre-tax subtotal, `after-tax` of the subtotal plus its tax. Smart tips (as Square's) offer
 * three flat amounts instead of percents while the tip base is below a threshold (a $4.00
 * coffee gets $1/$2/$3, not 15 % = $0.60).
 *
 * Rounding: a percent tip is rounded half up on the cent, in integer math (15 % of $10.75 =
 * 161.25 ¢ → $1.61; 15 % of $0.10 = 1.5 ¢ → $0.02). Percents are whole numbers.
 */

export const TIP_BASES = ['before-tax', 'after-tax'] as const;
export type TipBase = (typeof TIP_BASES)[number];

export interface SmartTips {
  enabled: boolean;
  /** Below this tip base (cents) the flat amounts are offered instead of the percents. */
  thresholdCents: number;
  /** Three flat tips in cents. */
  amountsCents: readonly number[];
}

export interface TipRules {
  tipBase: TipBase;
  smartTips: SmartTips;
}

export type TipSuggestion = { kind: 'percent'; percent: number; cents: number } | { kind: 'flat'; cents: number };

export interface TipOffer {
  /** What a percent is taken of (cents). */
  baseCents: number;
  /** True when the flat amounts are offered (smart tips below the threshold). */
  flat: boolean;
  suggestions: TipSuggestion[];
}

/** The amount a tip percent is taken of. */
export function tipBaseCents(subtotalCents: number, taxCents: number, base: TipBase): number {
  return base === 'after-tax' ? subtotalCents + taxCents : subtotalCents;
}

/** `percent` of `baseCents`, rounded half up on the cent. */
export function percentTipCents(baseCents: number, percent: number): number {
  return Math.floor((baseCents * Math.round(percent * 100) + 5000) / 10000);
}

/** The tips to offer on a sale of `subtotalCents` (before tax) with `taxCents` of tax, with the given percents. */
export function tipSuggestions(subtotalCents: number, taxCents: number, rules: TipRules, percents: readonly number[]): TipOffer {
  const baseCents = tipBaseCents(subtotalCents, taxCents, rules.tipBase);
  const smart = rules.smartTips;
  if (smart.enabled && baseCents < smart.thresholdCents) {
    return { baseCents, flat: true, suggestions: smart.amountsCents.map((cents) => ({ kind: 'flat', cents })) };
  }
  return { baseCents, flat: false, suggestions: percents.map((percent) => ({ kind: 'percent', percent, cents: percentTipCents(baseCents, percent) })) };
}

/** What a terminal that asks the customer for the tip is told: the base of its own percents, and smart tips' flat amounts below the threshold. */
export interface TerminalTipRequest {
  tipBaseCents: number;
  tipAmountsCents?: number[];
}

export function terminalTipRequest(subtotalCents: number, taxCents: number, rules: TipRules): TerminalTipRequest {
  const offer = tipSuggestions(subtotalCents, taxCents, rules, []);
  return { tipBaseCents: offer.baseCents, ...(offer.flat ? { tipAmountsCents: offer.suggestions.map((s) => s.cents) } : {}) };
}

/**
 * Cart arithmetic, in integer cents, shared by the core (which is the authority) and the
 * sale screen (which shows the same figures as the cashier types).
 *
 * The rounding rule, once:
 * 1. A line's gross is unit price × quantity (exact, integers).
 * 2. A line discount in percent is rounded half-up to the cent on that line's gross; an
 *    amount discount is capped at the gross (the core refuses one that would not fit, and all
 *    of it off is a comp: discount-guard.ts; the cap only keeps this arithmetic whole).
 * 3. A whole-cart discount in percent is rounded half-up on the sum of the lines after
 *    their own discounts; an amount is capped at that sum. It is then shared across the
 *    lines in proportion to their net by largest remainder, so the shares add up exactly.
 * 4. Tax is computed once per tax category on the sum of that category's lines after all
 *    discounts, rounded half-up (not per line, so ten 5¢ lines do not lose tax to rounding),
 *    then shared back to the category's lines by largest remainder (for Level 3 and refunds).
 * 5. Total = Σ line nets + Σ category taxes. Every figure is a non-negative integer.
 *
 * The manager-approval share (issue 20): what the customer gets off a line is its own
 * discount and its share of the whole-sale discount together, compounded (20 % on the line
 * and 20 % on the sale is 36 % off). Each discount counts at its rate as given — a percent is
 * itself, an amount is its cents over what it discounts, as rounded above — so rounding a
 * share to the cent never tips a discount at exactly the limit over it. The whole sale's
 * share is a weighted average of its lines' (weights: their gross), so it is never above the
 * largest line's: checking every line checks the sale.
 *
 * Percents are basis points (1 250 = 12.5 %), as the store's tax rate is.
 */

/** `comp`: all of it off, given by a manager (issue 21: discount-guard.ts); the other kinds are at most what they discount. */
export type Discount = { kind: 'amount'; cents: number } | { kind: 'percent'; basisPoints: number } | { kind: 'comp' };

export interface CartLineInput {
  id: string;
  name: string;
  unitCents: number;
  quantity: number;
  taxCategory: string;
  discount: Discount | null;
}

export interface CartLineTotals {
  id: string;
  grossCents: number;
  lineDiscountCents: number;
  /** This line's share of the whole-cart discount. */
  cartDiscountShareCents: number;
  /** Gross less both discounts: what the line sells for before tax. */
  netCents: number;
  /** This line's share of its category's tax. */
  taxCents: number;
  /** netCents + taxCents: what returning this line gives back. */
  totalCents: number;
}

export interface CartTotals {
  lines: CartLineTotals[];
  grossCents: number;
  lineDiscountCents: number;
  cartDiscountCents: number;
  subtotalCents: number;
  taxByCategory: Array<{ category: string; rateBasisPoints: number; taxableCents: number; taxCents: number }>;
  taxCents: number;
  totalCents: number;
  /** The largest discount off a line (its own and its share of the whole-sale one, compounded), in basis points, rounded up (manager approval check). */
  largestDiscountBasisPoints: number;
  /** Whether that largest share comes from a line's own and the whole-sale discount together (the refusal says so). */
  largestDiscountCombined: boolean;
}

/** a × bp / 10 000, rounded half-up; a and bp are non-negative integers. */
export function percentOf(cents: number, basisPoints: number): number {
  return Math.floor((cents * basisPoints + 5_000) / 10_000);
}

/**
 * Splits `total` across `weights` in proportion, by largest remainder: the parts are
 * integers that add up to `total` exactly; ties go to the earlier index. Zero weights get 0
 * unless every weight is zero (then the first part takes it all).
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  if (sum === 0) return weights.map((_w, i) => (i === 0 ? total : 0));
  const parts = weights.map((w) => Math.floor((total * w) / sum));
  const rest = total - parts.reduce((a, b) => a + b, 0);
  const order = weights
    .map((w, i) => ({ i, rem: (total * w) % sum }))
    .sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (let k = 0; k < rest; k++) parts[order[k % order.length]!.i]! += 1;
  return parts;
}

function discountCents(base: number, d: Discount | null): number {
  if (!d) return 0;
  if (d.kind === 'comp') return base;
  if (d.kind === 'amount') return Math.min(Math.max(0, d.cents), base);
  return Math.min(percentOf(base, Math.max(0, d.basisPoints)), base);
}

/** A discount's rate as a fraction num/den of what it discounts: a percent is itself, an amount its cents over `base`; none is 0/1. */
function discountRate(base: number, cents: number, d: Discount | null): { num: bigint; den: bigint } {
  if (cents <= 0 || !d) return { num: 0n, den: 1n };
  if (d.kind === 'comp') return { num: 1n, den: 1n };
  if (d.kind === 'percent') return { num: BigInt(Math.min(10_000, d.basisPoints)), den: 10_000n };
  if (base <= 0) return { num: 1n, den: 1n };
  return { num: BigInt(cents), den: BigInt(base) };
}

/**
 * Two rates compounded, 1 − (1 − a)(1 − b), in basis points rounded up. BigInt: the
 * denominators are cents of whole lines and carts, and their product passes 2^53.
 */
function compoundedBasisPoints(a: { num: bigint; den: bigint }, b: { num: bigint; den: bigint }): number {
  const num = (a.num * b.den + b.num * a.den - a.num * b.num) * 10_000n;
  const den = a.den * b.den;
  return Math.min(10_000, Number((num + den - 1n) / den));
}

export function computeCart(lines: readonly CartLineInput[], cartDiscount: Discount | null, taxRates: (category: string) => number): CartTotals {
  const gross = lines.map((l) => l.unitCents * l.quantity);
  const lineDisc = lines.map((l, i) => discountCents(gross[i]!, l.discount));
  const afterLine = gross.map((g, i) => g - lineDisc[i]!);
  const afterLineSum = afterLine.reduce((a, b) => a + b, 0);
  const cartDisc = discountCents(afterLineSum, cartDiscount);
  const shares = allocate(cartDisc, afterLine);
  const net = afterLine.map((n, i) => n - shares[i]!);

  const categories = [...new Set(lines.map((l) => l.taxCategory))];
  const taxByCategory = categories.map((category) => {
    const idx = lines.map((l, i) => (l.taxCategory === category ? i : -1)).filter((i) => i >= 0);
    const taxableCents = idx.reduce((a, i) => a + net[i]!, 0);
    const rateBasisPoints = taxRates(category);
    return { category, rateBasisPoints, taxableCents, taxCents: percentOf(taxableCents, rateBasisPoints), idx };
  });
  const lineTax = lines.map(() => 0);
  for (const c of taxByCategory) {
    const parts = allocate(c.taxCents, c.idx.map((i) => net[i]!));
    c.idx.forEach((i, k) => (lineTax[i] = parts[k]!));
  }

  const none = { num: 0n, den: 1n };
  const cartRate = discountRate(afterLineSum, cartDisc, cartDiscount);
  let largest = 0;
  let largestCombined = false;
  lines.forEach((l, i) => {
    const own = discountRate(gross[i]!, lineDisc[i]!, l.discount);
    const fromCart = shares[i]! > 0 ? cartRate : none;
    const combined = compoundedBasisPoints(own, fromCart);
    if (combined > largest) {
      largest = combined;
      largestCombined = own.num > 0n && fromCart.num > 0n;
    }
  });

  const subtotalCents = net.reduce((a, b) => a + b, 0);
  const taxCents = taxByCategory.reduce((a, c) => a + c.taxCents, 0);
  return {
    lines: lines.map((l, i) => ({
      id: l.id,
      grossCents: gross[i]!,
      lineDiscountCents: lineDisc[i]!,
      cartDiscountShareCents: shares[i]!,
      netCents: net[i]!,
      taxCents: lineTax[i]!,
      totalCents: net[i]! + lineTax[i]!,
    })),
    grossCents: gross.reduce((a, b) => a + b, 0),
    lineDiscountCents: lineDisc.reduce((a, b) => a + b, 0),
    cartDiscountCents: cartDisc,
    subtotalCents,
    taxByCategory: taxByCategory.map(({ idx: _idx, ...c }) => c),
    taxCents,
    totalCents: subtotalCents + taxCents,
    largestDiscountBasisPoints: largest,
    largestDiscountCombined: largestCombined,
  };
}

/**
 * A returned line's share of each tender: the line's total split across the tenders in
 * proportion to what each collected (largest remainder), never more than a tender has left
 * to give back. `tenders` are what each tender collected less what was already refunded
 * from it; change given on cash is not collected money. Returns cents per tender, same order.
 */
export function allocateLineRefund(lineTotalCents: number, tenderRemainingCents: readonly number[]): number[] {
  const available = tenderRemainingCents.reduce((a, b) => a + Math.max(0, b), 0);
  const amount = Math.min(lineTotalCents, available);
  const parts = allocate(amount, tenderRemainingCents.map((c) => Math.max(0, c)));
  // Largest remainder cannot push a part over its weight when amount ≤ Σ weights, but keep it certain.
  let spill = 0;
  const capped = parts.map((p, i) => {
    const cap = Math.max(0, tenderRemainingCents[i]!);
    if (p > cap) {
      spill += p - cap;
      return cap;
    }
    return p;
  });
  for (let i = 0; spill > 0 && i < capped.length; i++) {
    const room = Math.max(0, tenderRemainingCents[i]!) - capped[i]!;
    const take = Math.min(room, spill);
    capped[i]! += take;
    spill -= take;
  }
  return capped;
}

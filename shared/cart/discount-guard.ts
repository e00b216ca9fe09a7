/**
 * What a discount may be (issue 21, point 2), checked by the core on every edit (the
 * authority: a crafted call gets the same refusal) and by the sale screen before it sends:
 * - a discount is at most what it discounts — an amount above a line's gross, or above the
 *   sale after its lines' own discounts, is refused, never quietly cut down to "free";
 * - all of it off (100 %, or an amount equal to what it discounts) is a comp: its own action,
 *   `cart:comp`, which always takes a manager, whatever the store's discount limit.
 * The same holds after an edit that shrinks what a discount is taken from (fewer of an item,
 * a line removed): the edit is refused while an amount discount would no longer fit.
 */
import { formatMoney } from '../payments/money';
import { percentOf, type Discount } from './cart-math';

export type DiscountFit = 'fits' | 'over' | 'whole';

/** Whether `d` fits on `baseCents` (a line's gross, or the sale after its line discounts). A comp is always whole. */
export function discountFit(baseCents: number, d: Discount | null): DiscountFit {
  if (!d) return 'fits';
  if (d.kind === 'comp') return 'whole';
  if (d.kind === 'percent') return d.basisPoints >= 10_000 ? 'whole' : 'fits';
  if (d.cents > baseCents) return 'over';
  return d.cents === baseCents ? 'whole' : 'fits';
}

/** What `d` takes off `baseCents` in cents: a percent rounded as the cart rounds it (cart-math.ts), an amount as typed. */
export function discountMoney(baseCents: number, d: Discount): number {
  if (d.kind === 'comp') return baseCents;
  return d.kind === 'percent' ? percentOf(baseCents, d.basisPoints) : d.cents;
}

const dollars = (cents: number) => `$${formatMoney(cents)}`;

/** `what`: "the whole sale" or a line's name. */
export const DISCOUNT_COPY = {
  over: (what: string, discountCents: number, baseCents: number) =>
    `${dollars(discountCents)} off is more than ${what} (${dollars(baseCents)}). A discount is at most what it discounts; to give it free, use Comp.`,
  whole: (what: string) => `That takes all of ${what} off: giving it free is a comp. Use Comp, which a manager approves.`,
  /** An edit that shrinks what an amount discount is taken from. */
  shrinks: (what: string, discountCents: number, baseCents: number) =>
    `That leaves ${dollars(discountCents)} off ${what}, which would come to ${dollars(baseCents)}. Lower the discount first.`,
  compNeedsManager: (what: string) => `A comp gives ${what} away free: a manager enters their PIN.`,
  compRefused: 'That is not a manager PIN. Nothing was given away.',
  /** The receipt's and the cart's word for it. */
  compLabel: 'Comp',
  wholeSale: 'the whole sale',
} as const;

/**
 * The customer-facing display (issue 23, point 4): what the customer sees on a second screen,
 * kept by the core (electron/core/display/) and pushed as `display:state` whenever it changes.
 *
 * The display page never signs in: it is a screen turned to the customer, not a user. So its two
 * channels are open before sign-in, and what they answer holds nothing secret — the store's
 * name, the cart's lines and figures, the tip offered, a terminal's prompt, approved or declined
 * and the change due. Never a card number, the cashier's name, or anything of the manager's.
 * The customer may pick one of the tips offered for the cart in progress; the cashier's screen
 * shows the pick and the cashier still charges: the display moves no money.
 */
import { z } from 'zod';
import type { TipSuggestion } from '../payments/tip-suggestions';
import { idSchema } from './common';
import type { ChannelDeclarations } from './channel-declaration';

/** The part of the page's #fragment that asks for the customer display instead of the counter (`#token=…&view=display`). */
export const DISPLAY_VIEW_FRAGMENT = 'view=display';

/**
 * - `idle`: the store's name;
 * - `cart`: the cart as it is rung up (with the tip choice when one is offered);
 * - `terminal`: the payment terminal works, its own prompt shown;
 * - `approved` / `declined`: a card's answer;
 * - `change`: the change due after cash;
 * - `thanks`: the sale is paid; idle follows a few seconds later.
 */
export type DisplayPhase = 'idle' | 'cart' | 'terminal' | 'approved' | 'declined' | 'change' | 'thanks';

export interface DisplayLine {
  id: string;
  name: string;
  quantity: number;
  unitCents: number;
  /** Quantity × unit price, before discounts (the discounts show as one figure under the lines). */
  amountCents: number;
  /** The variant and modifiers it was sold with, one short text each ("Large", "Extra shot +$0.50"). */
  details: Array<{ name: string; priceCents: number }>;
}

export interface DisplayCart {
  id: string;
  lines: DisplayLine[];
  itemsCents: number;
  discountCents: number;
  taxCents: number;
  totalCents: number;
  /** Tenders taken so far (cash and cards), tips not included. */
  paidCents: number;
  balanceCents: number;
}

/** What the customer picked: no tip, or one of the suggestions by its kind (a percent follows the cart's figures). */
export type DisplayTipPick = { kind: 'none' } | TipSuggestion;

export interface DisplayTip {
  cartId: string;
  /** The tips offered on the store's tip base (shared/payments/tip-suggestions.ts), smart tips included. */
  suggestions: TipSuggestion[];
  /** What the customer picked, or null before they do. */
  picked: DisplayTipPick | null;
  /** Counts the customer's picks on this cart: a screen applies each pick once. */
  pickCount: number;
}

export interface DisplayState {
  /** Grows with every change: a page ignores an answer older than the event it already has. */
  seq: number;
  phase: DisplayPhase;
  storeName: string;
  /** The cart in progress (or just paid); null when idle. */
  cart: DisplayCart | null;
  /** The tip choice, offered when the store asks for tips and there is no payment terminal (the terminal asks its own). */
  tip: DisplayTip | null;
  /** The terminal's own prompt while it works (`terminal`). */
  prompt: string | null;
  /** `approved`: the amount approved (tip included); `change`: the change due; otherwise 0. */
  amountCents: number;
}

export const DISPLAY_MESSAGES = {
  tipNotOffered: 'No tip is being asked for right now.',
  tipChanged: 'The tips offered have changed. Please choose again.',
} as const;

export const displayHandlers = {
  /** What the display shows now, for a page that just opened (then it follows `display:state`). */
  'display:current': { args: z.void(), access: 'before-sign-in', effect: 'read', audit: 'none' },
  /**
   * The customer picks one of the tips offered for the cart in progress (`index`; null: no tip), `cents` being the
   * amount they saw. Nothing is charged: the cashier's screen takes the pick and the cashier charges.
   */
  'display:pick-tip': {
    args: z.strictObject({ cartId: idSchema, index: z.number().int().min(0).max(9).nullable(), cents: z.number().int().min(0).max(100_000_00) }),
    access: 'before-sign-in',
    effect: 'transient',
    audit: 'none',
  },
} as const satisfies ChannelDeclarations;

export interface DisplayResults {
  'display:current': DisplayState;
  'display:pick-tip': DisplayState;
}

export interface DisplayEventPayloads {
  /** The customer display changed: every window and page follows (the display page signs in to nothing). */
  'display:state': DisplayState;
}
export const displayEventNames = ['display:state'] as const;

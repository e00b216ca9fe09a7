/**
 * The `cart:*` channels: the sale in progress as a cart of lines, its discounts and tax,
 * and its tenders (cash, keyed card, split). The core keeps the cart in SQLite (it survives
 * a restart until paid or cleared) and is the authority for every figure; the screen shows
 * the CartView it answers.
 */
import { z } from 'zod';
import type { CartTotals, Discount } from '../cart/cart-math';
import type { SaleStatus, Tender } from '../cart/tender-machine';

export type { CartTotals, Discount } from '../cart/cart-math';
export type { Tender } from '../cart/tender-machine';
import { codeSchema, lineChoiceArgsSchema, TAX_CATEGORIES, type LineChoice } from './catalogue';
import { approvalSchema, centsSchema, idSchema } from './common';
import { guardConfirmationFields, keyedCardSchema } from './sales';
import type { TransactionView } from './transactions';
import { COUNTER, MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

/** A typed or tendered amount above the store's threshold carries the total the cashier confirmed (shared/amount-guards.ts). */
const confirmedCents = guardConfirmationFields.confirmedCents;
const confirmedTipCents = guardConfirmationFields.confirmedTipCents;
/** A card tender's tip on top of its part of the balance (issue 21; chosen on the cart's tip picker, by the store's tip base). */
const tipCents = centsSchema.default(0);

export const discountSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('amount'), cents: centsSchema.min(1, 'Enter a discount above $0.00.') }),
  z.strictObject({ kind: z.literal('percent'), basisPoints: z.number().int().min(1, 'Enter a percent above 0.').max(10_000, 'A discount is at most 100 %.') }),
]);

/** A discount given on a line or the sale (percent or amount); a comp is not one: it goes through `cart:comp`. */
export type DiscountChoice = z.infer<typeof discountSchema>;

export { approvalSchema } from './common';

export interface CartLineView {
  id: string;
  itemId: string | null;
  name: string;
  unitCents: number;
  quantity: number;
  taxCategory: string;
  productCode: string;
  unitCode: string;
  commodityCode: string;
  discount: Discount | null;
  refunded: boolean;
  /** The variant and modifiers it was sold with (issue 23); null for an open amount or a plain item. */
  choice: LineChoice | null;
}

export interface CartView {
  id: string;
  status: SaleStatus;
  lines: CartLineView[];
  cartDiscount: Discount | null;
  totals: CartTotals;
  tenders: Tender[];
  balanceCents: number;
  /** Change due on the cash tenders. */
  changeCents: number;
  /** The manager who approved the discounts above the store's limit (a PIN at the counter, or signed in); null when none is needed. */
  discountApprovedBy: string | null;
  /** Level 3 sent from the cart, per card transaction: a sentence for the receipt and the result screen. */
  level3: Array<{ transactionId: string; sent: boolean; note: string }>;
  createdTs: number;
  /** Unix milliseconds when it was paid (the receipt's time); null while open. */
  paidTs: number | null;
  /**
   * Issue 23: a sentence when the last change (a line added, the sale paid) took a counted item's
   * stock below zero — said once per item (or variant) per cart, e.g. "Only 0 Water 500 ml left in
   * stock: the count goes to −1." Selling goes on; null otherwise.
   */
  stockWarning: string | null;
}

/** A paid cart with what its receipt needs beyond the cart: who rang it up and each card tender's gateway record. */
export interface CartReceiptData {
  cart: CartView;
  /** The counter user whose cart it was. */
  cashier: string | null;
  /** Per card tender (by tender id): the gateway's record (brand, last four, auth code, entry mode, signature); null when it could not be read. */
  cards: Record<string, TransactionView | null>;
}

/** One paid (or due) cart in the list of cart sales (cash ones included: they have no gateway transaction to find them by). */
export interface CartSaleRow {
  id: string;
  /** `due`: paid once, then a card payment of it was voided (issue 20): `dueCents` is owed again. */
  status: 'paid' | 'due';
  /** What a due cart still owes; 0 when paid. */
  dueCents: number;
  /** Who is collecting a due cart now (null when no one is). */
  collector: string | null;
  /** Unix milliseconds when it was paid. */
  paidTs: number;
  cashier: string | null;
  totalCents: number;
  /** The tenders as words, e.g. "Cash" or "Cash + Card". */
  paidBy: string;
  lineCount: number;
  /** Lines already returned. */
  returnedLines: number;
}

export interface CartSalesPage {
  rows: CartSaleRow[];
  page: number;
  pageCount: number;
}

export const CART_SALES_PAGE_SIZE = 50;

/** A scanned item that needs the picker before it can be added: its id and the variant its code named (null: the item's own code). */
export interface CartPick {
  itemId: string;
  variantId: string | null;
}

export interface CashDrawerEvent {
  cartId: string;
  reason: 'cash-sale' | 'cash-refund' | 'cash-return';
}

export const cartHandlers = {
  /** The signed-in user's open cart (a new, empty one when none). */
  'cart:current': { args: z.void(), access: COUNTER, effect: 'read', audit: 'none' },
  /**
   * An item, with its variant and modifier options when it has any (issue 23): the core checks the choice
   * against the catalogue and prices the line; the same choice again adds to its line's quantity.
   */
  'cart:add-item': {
    args: z.strictObject({ itemId: idSchema, quantity: z.number().int().min(1).max(9_999).default(1), choice: lineChoiceArgsSchema.optional() }),
    access: COUNTER,
    effect: 'cart',
    audit: 'none',
  },
  /**
   * One of the active item whose SKU or product code is `code` (a barcode scanner's read, issue 21):
   * matched whole, any case. The codes' own alphabet: a card swipe's track (; = ^ ?) is refused unread.
   * A variant's SKU adds that variant (issue 23); when the item still needs a choice (a required group),
   * nothing is added and the answer's `pick` says which item and variant the screen's picker opens on.
   */
  'cart:add-code': { args: z.strictObject({ code: codeSchema('The code', 32).min(1, 'The code is empty.') }), access: COUNTER, effect: 'cart', audit: 'none' },
  /** An open amount from the keypad (no catalogue item). */
  'cart:add-open': { args: z.strictObject({ name: z.string().trim().min(1).max(26).default('Open amount'), amountCents: centsSchema.min(1), taxCategory: z.enum(TAX_CATEGORIES).default('standard'), confirmedCents }), access: COUNTER, effect: 'cart', audit: 'none' },
  /** Fewer of an item raises the share an amount discount takes: past the limit, a cashier needs a manager's `approval`. */
  'cart:set-quantity': {
    args: z.strictObject({
      lineId: idSchema,
      quantity: z.number().int('A quantity is a whole number.').min(1, 'A quantity is at least 1.').max(9_999, 'A quantity is at most 9,999.'),
      approval: approvalSchema.optional(),
    }),
    access: COUNTER,
    effect: 'cart',
    audit: audits(['discount'], ['amount', 'detail', 'approver']),
  },
  /** Removing a line raises the share a whole-sale amount discount takes: as for set-quantity. */
  'cart:remove-line': { args: z.strictObject({ lineId: idSchema, approval: approvalSchema.optional() }), access: COUNTER, effect: 'cart', audit: audits(['discount'], ['amount', 'detail', 'approver']) },
  'cart:set-line-discount': { args: z.strictObject({ lineId: idSchema, discount: discountSchema.nullable(), approval: approvalSchema.optional() }), access: COUNTER, effect: 'discount', audit: audits(['discount'], ['amount', 'detail', 'approver']) },
  'cart:set-cart-discount': { args: z.strictObject({ discount: discountSchema.nullable(), approval: approvalSchema.optional() }), access: COUNTER, effect: 'discount', audit: audits(['discount'], ['amount', 'detail', 'approver']) },
  /**
   * A comp (issue 21, point 2): the line, or the whole sale when no `lineId`, given away free. Always a
   * manager's: signed in, or their PIN as `approval`. A comp that leaves nothing to pay closes the sale at $0.00.
   */
  'cart:comp': { args: z.strictObject({ lineId: idSchema.optional(), approval: approvalSchema.optional() }), access: COUNTER, effect: 'discount', audit: audits(['discount'], ['amount', 'detail', 'approver']) },
  /** A manager's PIN approving the cart's discounts as they stand (a tender was refused for want of it). */
  'cart:approve': { args: z.strictObject({ approval: approvalSchema }), access: COUNTER, effect: 'discount', audit: audits(['discount'], ['amount', 'detail', 'approver']) },
  /** Empties the cart; refused once a tender was taken (cancel the sale instead). */
  'cart:clear': { args: z.void(), access: COUNTER, effect: 'cart', audit: 'none' },
  /** Cash handed over; it pays up to the balance (or `amountCents` of it in a split) and the rest is change. */
  'cart:pay-cash': { args: z.strictObject({ tenderedCents: centsSchema.min(1, 'Enter the cash handed over.'), amountCents: centsSchema.min(1).optional() }), access: COUNTER, effect: 'money', audit: audits(['cash-sale'], ['amount', 'detail']) },
  /** A keyed card for the balance or `amountCents` of it; clientRef is an attempt id (the core makes the tender's transaction_api_id). */
  'cart:pay-card': { args: z.strictObject({ card: keyedCardSchema, amountCents: centsSchema.min(1).optional(), clientRef: idSchema, tipCents, confirmedCents, confirmedTipCents }), access: COUNTER, effect: 'money', audit: audits(['sale'], ['amount', 'transaction', 'detail']) },
  /** A customer's saved card (vault id) for the balance or `amountCents` of it. */
  'cart:pay-saved': { args: z.strictObject({ methodId: idSchema, amountCents: centsSchema.min(1).optional(), clientRef: idSchema, tipCents, confirmedCents, confirmedTipCents }), access: COUNTER, effect: 'money', audit: audits(['sale'], ['amount', 'transaction', 'detail']) },
  /**
   * The counter's payment terminal for the balance or `amountCents` of it, plus a tip chosen at the counter, or (`tipCents`
   * null) one the customer picks on the terminal, on the store's tip base; clientRef is an attempt id (the core makes the tender's transaction_api_id).
   */
  'cart:pay-terminal': { args: z.strictObject({ amountCents: centsSchema.min(1).optional(), clientRef: idSchema, tipCents: centsSchema.nullable().default(0), confirmedCents, confirmedTipCents }), access: COUNTER, effect: 'money', audit: audits(['sale'], ['amount', 'transaction', 'detail']) },
  /**
   * Cancels the sale: voids (or refunds) the card tenders already taken and gives the cash back; `confirmed` is the
   * cashier's yes. A card fully approved takes a manager: signed in, or their PIN as `approval` at the cashier's counter.
   */
  'cart:cancel': { args: z.strictObject({ confirmed: z.literal(true), approval: approvalSchema.optional() }), access: COUNTER, effect: 'money', audit: audits(['void', 'refund', 'cash-refund'], ['amount', 'transaction', 'detail', 'approver']) },
  /** A keyed sale's partial approval becomes a cart: its amount as a line, the approved card as a tender, the rest as the balance (cash or another card). */
  'cart:adopt-partial': { args: z.strictObject({ transactionId: idSchema }), access: COUNTER, effect: 'cart', audit: 'none' },
  /** A paid cart (receipt, refunds). */
  'cart:view': { args: z.strictObject({ cartId: idSchema }), access: COUNTER, effect: 'read', audit: 'none' },
  /** A paid cart with its receipt's card details and cashier (reprint, the Paid screen). */
  'cart:receipt': { args: z.strictObject({ cartId: idSchema }), access: COUNTER, effect: 'read', audit: 'none' },
  /** Paid carts, newest first, in pages (cash-only sales are found here). */
  'cart:sales': { args: z.strictObject({ page: z.number().int().min(1).max(10_000).default(1) }), access: COUNTER, effect: 'read', audit: 'none' },
  /**
   * A due cart (a card payment of it voided after it was paid) becomes the signed-in counter
   * user's cart to tender, while their own cart is empty: the normal tenders take what is due.
   */
  'cart:collect': { args: z.strictObject({ cartId: idSchema }), access: COUNTER, effect: 'cart', audit: 'none' },
  /** The due cart being collected goes back to Cart sales, still due (nothing pending on it). */
  'cart:put-back': { args: z.void(), access: COUNTER, effect: 'cart', audit: 'none' },
  /** The paid cart a card transaction belongs to, or null. */
  'cart:of-transaction': { args: z.strictObject({ transactionId: idSchema }), access: COUNTER, effect: 'read', audit: 'none' },
  /** Managers: returns the chosen lines, refunding each line's share of each tender. */
  'cart:refund-lines': { args: z.strictObject({ cartId: idSchema, lineIds: z.array(idSchema).min(1, 'Choose at least one line.').max(500) }), access: MANAGER, effect: 'money', audit: audits(['refund', 'cash-refund'], ['amount', 'transaction', 'detail']) },
} as const satisfies ChannelDeclarations;

export interface CartResults {
  'cart:current': CartView;
  'cart:add-item': CartView;
  'cart:add-code': CartView & { pick?: CartPick };
  'cart:add-open': CartView;
  'cart:set-quantity': CartView;
  'cart:remove-line': CartView;
  'cart:set-line-discount': CartView;
  'cart:set-cart-discount': CartView;
  'cart:comp': CartView;
  'cart:approve': CartView;
  'cart:clear': CartView;
  'cart:pay-cash': CartView;
  'cart:pay-card': CartView & { message: string };
  'cart:pay-saved': CartView & { message: string };
  'cart:pay-terminal': CartView & { message: string };
  'cart:cancel': CartView;
  'cart:adopt-partial': CartView;
  'cart:view': CartView;
  'cart:receipt': CartReceiptData;
  'cart:sales': CartSalesPage;
  'cart:of-transaction': CartView | null;
  'cart:collect': CartView;
  'cart:put-back': CartView;
  'cart:refund-lines': { cart: CartView; refundedCents: number; cashBackCents: number; message: string };
}

export interface CartEventPayloads {
  /** Open the cash drawer: the devices work wires this to a drawer kick. */
  'drawer:open': CashDrawerEvent;
}
export const cartEventNames = ['drawer:open'] as const;

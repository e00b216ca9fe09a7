/**
 * Every receipt the counter prints on a receipt printer, as ReceiptLine markup (receipt-layout.ts),
 * from the same data and with the same content as the screen's receipts: a transaction's sale,
 * refund or sale paid on two cards (renderer/src/receipts/receipt.tsx), a paid cart
 * (renderer/src/cart/cart-receipt.tsx), a pay link's payment, and the X and Z reports
 * (renderer/src/reports/day-report-view.tsx). Customer and merchant copies differ as on screen:
 * the merchant's carries the signature line where one is due, Level 3 notes and who approved a comp.
 *
 * A card is only ever its brand and last four: nothing here reads another card field.
 * Times are formatted by the caller's `formatTime` (the core's locale and zone), so tests fix it.
 *
 * Simplification: a cart line's `unitCents` is taken as its price with its variant and
 * modifiers (what the line is charged); each modifier prints under the line with its price
 * beside its name ("+ Oat +$0.60"), never in the amount column, so the column adds up.
 */
import type { CartReceiptData, Tender } from '../ipc/cart';
import type { DayReport } from '../ipc/reports';
import type { BreakdownRow, MoneyLine } from '../ipc/batches';
import type { TransactionView } from '../ipc/transactions';
import { DISCOUNT_COPY } from '../cart/discount-guard';
import { tenderLabel } from '../cart/tender-label';
import { CVM_WORDING, checkAuthorization } from '../payments/receipt-wording';
import { tipSuggestions, type TipRules } from '../payments/tip-suggestions';
import { dollars } from '../refund-limit';
import { shortRefOf } from '../short-ref';
import { ReceiptLayout } from './receipt-layout';
import { CARD_AGREEMENT, cartReceiptFacts, ENTRY_WORDS, RESULT_WORDS } from './receipt-words';

export type ReceiptCopy = 'customer' | 'merchant';

export interface ReceiptStore {
  name: string;
  address: string;
  phone: string;
}

export interface PrintOptions {
  copy: ReceiptCopy;
  /** Characters per line: 48 or 42 on 80 mm paper, 32 on 58 mm. */
  width: number;
  /** Unix seconds → the date and time printed. */
  formatTime: (unixSeconds: number) => string;
}


const money = dollars;
const minus = (cents: number) => `-${money(cents)}`;

/** Brand and last four only: the one way a card is named on paper. */
export function cardName(t: Pick<TransactionView, 'cardBrand' | 'lastFour'>): string {
  return `${t.cardBrand} **** ${t.lastFour}`;
}

export const receiptFoot = (copy: ReceiptCopy) => (copy === 'merchant' ? 'Merchant copy' : 'Customer copy - Thank you!');

function head(doc: ReceiptLayout, store: ReceiptStore, ts: number, cashier: string | null, o: PrintOptions): void {
  if (store.name) doc.center(store.name, { bold: true, big: true });
  if (store.address) doc.center(store.address);
  if (store.phone) doc.center(store.phone);
  doc.center(o.formatTime(ts));
  if (cashier) doc.center(`Cashier: ${cashier}`);
  doc.blank();
}

function cardFacts(doc: ReceiptLayout, t: TransactionView): void {
  doc.fact(t.entryMode === 'check' ? 'Account' : 'Card', cardName(t));
  doc.row('Entry', ENTRY_WORDS[t.entryMode ?? 'keyed']);
  if (t.checkNumber) doc.row('Check no.', t.checkNumber);
  if (t.emv) {
    doc.fact('Application', t.emv.label);
    doc.fact('AID', t.emv.aid);
    doc.fact('Verification', CVM_WORDING[t.emv.cvm]);
  }
}

function authAndRef(doc: ReceiptLayout, t: TransactionView): void {
  if (t.authCode) doc.row('Auth code', t.authCode);
  doc.row('Ref', t.ref);
  if (t.emv?.tvr) doc.fact('TVR', t.emv.tvr);
  if (t.emv?.tsi) doc.fact('TSI', t.emv.tsi);
}

function cardPaid(doc: ReceiptLayout, t: TransactionView): void {
  doc.row(cardName(t), money(t.amountCents));
  doc.row('Entry', ENTRY_WORDS[t.entryMode ?? 'keyed']);
  authAndRef(doc, t);
}

export interface SaleReceiptExtras {
  /** The partial approval this sale collected the rest of (a sale paid on two cards). */
  first?: TransactionView | null;
  /** The store's tip settings when tips are on: an untipped card sale prints suggested tips. */
  tips?: { rules: TipRules; percents: readonly number[] } | null;
}

/** A transaction's receipt: a sale, a refund, or the second card of a sale paid on two. */
export function saleReceiptDocument(t: TransactionView, store: ReceiptStore, o: PrintOptions, extras: SaleReceiptExtras = {}): string {
  const doc = new ReceiptLayout(o.width);
  const refund = t.kind === 'refund';
  const split = !refund && t.state !== 'declined' ? (extras.first ?? null) : null;
  const whole = split ?? t;
  const subtotal = whole.requestedCents - whole.taxCents - whole.tipCents;
  const checkAuth = t.entryMode === 'check' && t.state !== 'declined' ? checkAuthorization(store.name) : null;
  head(doc, store, t.createdTs, t.clerkName, o);
  doc.center(refund ? 'REFUND' : 'SALE', { bold: true });
  if (t.offline) doc.center('APPROVED OFFLINE - sent to the card issuer when the gateway answers again');
  doc.blank();
  if (refund && t.previousTransactionId) doc.fact('Refund of sale', `Ref ${shortRefOf(t.previousTransactionId)}`);
  if (split === null) cardFacts(doc, t);
  if (!refund && (whole.taxCents > 0 || whole.tipCents > 0)) doc.row('Subtotal', money(subtotal));
  if (!refund && whole.taxCents > 0) doc.row('Tax', money(whole.taxCents));
  if (!refund && whole.tipCents > 0) doc.row('Tip', money(whole.tipCents));
  if (split) {
    doc.row('Total', money(split.requestedCents), { bold: true, tall: true });
    cardPaid(doc, split);
    cardPaid(doc, t);
  } else if (t.partial) {
    doc.row('Total due', money(t.requestedCents));
    doc.row('Approved (partial)', money(t.amountCents), { bold: true, tall: true });
    doc.row('Still to pay', money(t.requestedCents - t.amountCents));
  } else {
    doc.row(refund ? 'Refund' : 'Total', refund ? minus(t.amountCents) : money(t.amountCents), { bold: true, tall: true });
  }
  if (t.refundedCents > 0) doc.row('Refunded', minus(t.refundedCents));
  doc.row('Result', t.offline ? 'APPROVED OFFLINE' : RESULT_WORDS[t.state]);
  if (split === null) authAndRef(doc, t);
  if (checkAuth && o.copy === 'customer') doc.blank().text(checkAuth);
  const untipped = t.kind !== 'refund' && t.entryMode !== 'check' && t.state === 'approved' && !t.partial && t.tipCents === 0;
  if (extras.tips && untipped) {
    const offer = tipSuggestions(t.requestedCents - t.taxCents, t.taxCents, extras.tips.rules, extras.tips.percents);
    doc.blank().text(`Suggested tips: ${offer.suggestions.map((s) => (s.kind === 'percent' ? `${s.percent}% ${money(s.cents)}` : money(s.cents))).join(' - ')}`);
  }
  if (o.copy === 'merchant' && (t.signatureLine || extras.first?.signatureLine || checkAuth) && t.state !== 'declined') doc.signature(checkAuth ?? CARD_AGREEMENT);
  doc.blank().center(t.state === 'declined' ? 'No charge was made.' : receiptFoot(o.copy));
  return doc.toString();
}

function percentText(bp: number): string {
  const whole = Math.floor(bp / 100);
  const frac = bp % 100;
  return frac === 0 ? `${whole}%` : `${whole}.${String(frac).padStart(2, '0').replace(/0$/, '')}%`;
}

function tenderLines(doc: ReceiptLayout, x: Tender, card: TransactionView | null | undefined, split: boolean): void {
  if (x.kind === 'cash') {
    doc.row(`Cash tendered ${money(x.tenderedCents)}`, money(x.approvedCents));
    if (split) doc.row('Tax in this payment', money(x.taxCents));
    return;
  }
  const partial = x.approvedCents < x.requestedCents;
  doc.row(`${tenderLabel(x.kind)} payment${partial ? ', approved (partial)' : ''}`, money(x.approvedCents));
  if (partial) doc.row('Asked on this card', money(x.requestedCents));
  if (x.tipCents > 0) {
    doc.row('Tip on this card', money(x.tipCents));
    doc.row('Charged to this card', money(x.approvedCents + x.tipCents));
  }
  if (split && x.status === 'approved') doc.row('Tax in this payment', money(x.taxCents));
  if (card) {
    cardFacts(doc, card);
    authAndRef(doc, card);
  } else if (x.transactionId) doc.row('Ref', shortRefOf(x.transactionId));
  if (x.refundedCents > 0) doc.row('Refunded', minus(x.refundedCents));
}

/** A paid cart: its items with their choices, discounts, tax, each payment, the change. */
export function cartReceiptDocument(data: CartReceiptData, store: ReceiptStore, o: PrintOptions): string {
  const doc = new ReceiptLayout(o.width);
  const { cart } = data;
  const t = cart.totals;
  const { paidBy, signature, comped, split } = cartReceiptFacts(data);
  head(doc, store, Math.floor((cart.paidTs ?? cart.createdTs) / 1000), data.cashier, o);
  doc.center('SALE', { bold: true });
  doc.blank();
  cart.lines.forEach((l, i) => {
    const lt = t.lines[i];
    const variant = l.choice?.variantName;
    const name = variant && !l.name.toLowerCase().includes(variant.toLowerCase()) ? `${l.name} (${variant})` : l.name;
    doc.row(name, money(lt?.grossCents ?? 0));
    if (l.quantity !== 1) doc.text(`  ${l.quantity} x ${money(l.unitCents)}`);
    // Said beside the name, as the screen and the customer display say it: the amount column holds what adds up to the subtotal.
    for (const m of l.choice?.modifiers ?? []) doc.text(`  + ${m.name}${m.priceCents ? ` +${money(m.priceCents)}` : ''}`);
    if ((lt?.lineDiscountCents ?? 0) > 0) doc.row(`  ${l.discount?.kind === 'comp' ? DISCOUNT_COPY.compLabel : 'Discount'}`, minus(lt?.lineDiscountCents ?? 0));
    if (l.refunded) doc.text('  Returned');
  });
  doc.rule();
  if (t.cartDiscountCents > 0) doc.row(cart.cartDiscount?.kind === 'comp' ? `${DISCOUNT_COPY.compLabel} (whole sale)` : 'Sale discount', minus(t.cartDiscountCents));
  doc.row('Subtotal', money(t.subtotalCents));
  for (const x of t.taxByCategory.filter((c) => c.rateBasisPoints > 0)) doc.row(`Sales tax (${percentText(x.rateBasisPoints)})`, money(x.taxCents));
  doc.row('Total', money(t.totalCents), { bold: true, tall: true });
  doc.blank();
  for (const x of paidBy) tenderLines(doc, x, data.cards[x.id], split);
  if (cart.changeCents > 0) doc.row('Change', money(cart.changeCents), { bold: true, tall: true });
  if (o.copy === 'merchant') {
    for (const n of cart.level3) doc.blank().text(n.note);
    if (comped && cart.discountApprovedBy) doc.blank().text(`${DISCOUNT_COPY.compLabel} approved by ${cart.discountApprovedBy}`);
    if (signature) doc.signature(CARD_AGREEMENT);
  }
  doc.blank().center(receiptFoot(o.copy));
  return doc.toString();
}

/** What a pay link asked for, beside the payment made on its page. */
export interface PayLinkFacts {
  description: string | null;
  /** null: the customer typed the amount. */
  amountCents: number | null;
  /** What is left to collect after this payment; null when the customer types the amount. */
  remainingCents: number | null;
}

/** A payment made on a pay link's page, printed at the counter (phone and mail orders). */
export function payLinkReceiptDocument(t: TransactionView, link: PayLinkFacts, store: ReceiptStore, o: PrintOptions): string {
  const doc = new ReceiptLayout(o.width);
  head(doc, store, t.createdTs, t.clerkName, o);
  doc.center('PAY LINK PAYMENT', { bold: true });
  doc.blank();
  if (link.description) doc.text(link.description);
  if (link.amountCents !== null) doc.row('Asked', money(link.amountCents));
  cardFacts(doc, t);
  if (t.taxCents > 0) doc.row('Tax', money(t.taxCents));
  doc.row('Paid', money(t.amountCents), { bold: true, tall: true });
  if (link.remainingCents !== null && link.remainingCents > 0) doc.row('Still to pay', money(link.remainingCents));
  if (t.refundedCents > 0) doc.row('Refunded', minus(t.refundedCents));
  doc.row('Result', RESULT_WORDS[t.state]);
  authAndRef(doc, t);
  doc.blank().center(t.state === 'declined' ? 'No charge was made.' : receiptFoot(o.copy));
  return doc.toString();
}

const counted = (label: string, l: MoneyLine) => `${label} (${l.count})`;
const minusOrZero = (cents: number) => (cents > 0 ? minus(cents) : money(0));

function breakdown(doc: ReceiptLayout, caption: string, rows: BreakdownRow[], tips: boolean): void {
  if (!rows.length) return;
  doc.blank().text(caption).rule();
  for (const r of rows) {
    doc.row(counted(r.label, r.sales), money(r.sales.cents));
    if (r.refunds.count > 0) doc.row(counted('  refunds', r.refunds), minus(r.refunds.cents));
    if (tips && r.tipsCents > 0) doc.row('  tips', money(r.tipsCents));
  }
}

/** The X or Z report on the roll: the same lines as the screen's report, the hour chart as a list of the hours with sales. */
export function dayReportDocument(report: DayReport, o: Omit<PrintOptions, 'copy'>): string {
  const doc = new ReceiptLayout(o.width);
  const t = report.totals;
  const all = report.allTenders ?? { sales: t.sales, refunds: t.refunds, netCents: t.netCents, taxCents: t.taxCents };
  const cashT = report.cashTenders;
  const earlier = report.earlier;
  const count = report.cashCount;
  if (report.store) {
    doc.center(report.store.name, { bold: true, big: true });
    if (report.store.address) doc.center(report.store.address);
    if (report.store.phone) doc.center(`Phone ${report.store.phone}`);
  }
  doc.center(report.kind === 'z' ? `Z REPORT ${report.number ?? ''} - DAY CLOSED` : 'X REPORT - THE DAY SO FAR', { bold: true });
  doc.center(`${o.formatTime(report.from)} to ${o.formatTime(report.to)}`);
  doc.center(`by ${report.generatedBy}`);
  if (report.kind === 'x') doc.center('An X report closes nothing.');
  doc.rule();
  if (cashT) doc.row(counted('Card sales', t.sales), money(t.sales.cents)).row(counted('Cash taken', cashT.sales), money(cashT.sales.cents));
  doc.row(counted(cashT ? 'Sales, card + cash' : 'Sales', all.sales), money(all.sales.cents), { bold: !!cashT });
  doc.row(cashT ? 'Tax collected, card + cash' : 'Taxes (in sales)', money(all.taxCents));
  doc.row('Tips (on cards)', money(t.tipsCents));
  doc.rule();
  doc.row(counted(cashT ? 'Card refunds' : 'Refunds', t.refunds), minusOrZero(t.refunds.cents));
  if (cashT) doc.row(counted('Cash given back', cashT.refunds), minusOrZero(cashT.refunds.cents));
  if (earlier && earlier.voidedSales.count > 0) doc.row(counted('Sold on an earlier day, voided now', earlier.voidedSales), minusOrZero(earlier.voidedSales.cents));
  if (earlier && earlier.voidedRefunds.count > 0) doc.row(counted('Refunded on an earlier day, voided now', earlier.voidedRefunds), money(earlier.voidedRefunds.cents));
  doc.row(cashT ? 'Net, card + cash' : 'Net', money(all.netCents), { bold: true, tall: true });
  if (earlier && (earlier.voidedSales.count > 0 || earlier.voidedRefunds.count > 0 || earlier.refunds.count > 0)) {
    if (earlier.refunds.count > 0) doc.text(`${earlier.refunds.count} of the refunds (${money(earlier.refunds.cents)}) were for sales of an earlier day.`);
    if (earlier.voidedSales.count > 0 || earlier.voidedRefunds.count > 0) doc.text("A void counts on the day it is made: the earlier day's Z report stays as it was printed.");
  }
  doc.rule();
  doc.row(`${counted('Voids', t.voids)}, not charged`, money(t.voids.cents));
  doc.row('Declined', String(t.declinedCount));
  if (report.achPending && report.achPending.count > 0) doc.row(counted('ACH debits pending at the bank', report.achPending), money(report.achPending.cents));
  if (report.offlineCount) doc.row('Taken offline', String(report.offlineCount));
  if (report.declinedAfterForwardCount) doc.row('Declined after forwarding', String(report.declinedAfterForwardCount));
  if (report.cash) {
    doc.rule().row('Expected cash (above the float)', money(report.cash.expectedCents), { bold: !count });
    if (count) {
      doc.row('Opening float', money(count.floatCents)).row('Cash counted', money(count.countedCents));
      doc.row(count.overShortCents === 0 ? 'Drawer balances' : count.overShortCents > 0 ? 'Over' : 'Short', count.overShortCents < 0 ? minus(-count.overShortCents) : money(count.overShortCents), { bold: true });
    }
  }
  if (report.achPending && report.achPending.count > 0) doc.text('ACH debits count in no total above until the bank settles them.');
  if (report.cartSales && report.cartSales.items.length) {
    doc.blank().text(`Items sold (${report.cartSales.carts} sales)`).rule();
    for (const i of report.cartSales.items) doc.row(`${i.quantity} x ${i.name}`, money(i.cents));
    if (report.cartSales.discountsCents > 0) doc.row('Discounts given', minus(report.cartSales.discountsCents));
  }
  breakdown(doc, 'Card sales and tips by employee', report.byEmployee, true);
  breakdown(doc, 'Card brands', t.byBrand, false);
  breakdown(doc, 'Entry modes', t.byEntryMode, false);
  const hours = report.byHour.filter((h) => h.count > 0);
  if (hours.length) {
    doc.blank().text(cashT ? 'Sales by hour (card + cash)' : 'Card sales by hour').rule();
    for (const h of hours) doc.row(`${String(h.hour).padStart(2, '0')}:00  (${h.count})`, money(h.cents));
  }
  doc.blank().text(`Card money counts what the card issuer approved, after any partial approval or tip change${cashT ? "; cash comes from the drawer's records." : '.'}`);
  return doc.toString();
}

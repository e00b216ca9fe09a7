/**
 * What the printed receipts are made from in tests: a card sale, a paid café cart (a large latte
 * with an extra shot, a bottle of water, a discount, cash with change and a card), a pay link's
 * payment and a Z report. Hand-made records of the shapes the core hands over; the card number
 * the tests look for on paper is FULL_PAN (never part of any record: only its last four are).
 */
import type { CartReceiptData, CartView } from '../../shared/ipc/cart';
import type { DayReport } from '../../shared/ipc/reports';
import type { TransactionView } from '../../shared/ipc/transactions';
import { computeCart } from '../../shared/cart/cart-math';

export const FULL_PAN = '4111111111111111';
export const STORE = { name: 'Café Nord', address: '12 Harbour Street, Portland ME', phone: '207-555-0142' };
/** A fixed formatter: no test depends on the machine's time zone or locale. */
export const formatTime = (s: number) => `T${s}`;

export function cardSale(over: Partial<TransactionView> = {}): TransactionView {
  return {
    id: 'tx-0001-abcd-ef12-3456789a',
    apiId: null,
    kind: 'sale',
    state: 'approved',
    statusId: 101,
    reasonCodeId: 1000,
    message: 'Approved.',
    amountCents: 1284,
    requestedCents: 1284,
    partial: false,
    taxCents: 84,
    tipCents: 200,
    refundedCents: 0,
    refundableCents: 1284,
    voidable: true,
    cardBrand: 'Visa',
    lastFour: FULL_PAN.slice(-4),
    authCode: 'A1B2C3',
    createdTs: 1_790_000_000,
    settled: false,
    previousTransactionId: null,
    notificationEmail: null,
    ref: '3456789A',
    entryMode: 'chip',
    emv: { aid: 'A0000000031010', label: 'VISA CREDIT', cvm: 'signature', tvr: '0000008000', tsi: 'E800' },
    signatureLine: true,
    clerkName: 'Ann',
    voidedBy: null,
    collectsRestOf: null,
    ...over,
  } as TransactionView;
}

export function cafeCart(): CartReceiptData {
  const lines: CartView['lines'] = [
    {
      id: 'l1',
      itemId: 'latte',
      name: 'Latte',
      unitCents: 525,
      quantity: 2,
      taxCategory: 'standard',
      productCode: '',
      unitCode: '',
      commodityCode: '',
      discount: { kind: 'amount', cents: 50 },
      refunded: false,
      choice: { variantId: 'latte-l', variantName: 'Large', modifiers: [{ optionId: 'shot', groupName: 'Extras', name: 'Extra shot', priceCents: 50 }] },
    },
    { id: 'l2', itemId: 'water', name: 'Spring water 500 ml', unitCents: 200, quantity: 1, taxCategory: 'exempt', productCode: '', unitCode: '', commodityCode: '', discount: null, refunded: false, choice: null },
  ];
  const totals = computeCart(
    lines.map((l) => ({ id: l.id, name: l.name, unitCents: l.unitCents, quantity: l.quantity, taxCategory: l.taxCategory, discount: l.discount })),
    null,
    (category) => (category === 'standard' ? 800 : 0),
  );
  const cash = { id: 't1', kind: 'cash', status: 'approved', requestedCents: 700, approvedCents: 700, tenderedCents: 2000, changeCents: 1300, transactionId: null, refundedCents: 0, taxCents: 0, tipCents: 0 } as const;
  const rest = totals.totalCents - 700;
  const card = { id: 't2', kind: 'terminal', status: 'approved', requestedCents: rest, approvedCents: rest, tenderedCents: 0, changeCents: 0, transactionId: 'tx-0001-abcd-ef12-3456789a', refundedCents: 0, taxCents: totals.taxCents, tipCents: 0 } as const;
  const cart = {
    id: 'cart-1',
    status: 'paid',
    lines,
    cartDiscount: null,
    totals,
    tenders: [cash, card],
    balanceCents: 0,
    changeCents: 1300,
    discountApprovedBy: null,
    level3: [{ transactionId: card.transactionId, sent: true, note: 'Level 3 line items sent with the card payment.' }],
    createdTs: 1_790_000_000_000,
    paidTs: 1_790_000_060_000,
  } as unknown as CartView;
  return { cart, cashier: 'Ann', cards: { t2: cardSale({ amountCents: rest, requestedCents: rest, tipCents: 0, taxCents: totals.taxCents }) } };
}

const line = (count: number, cents: number) => ({ count, cents });

export function zReport(): DayReport {
  return {
    kind: 'z',
    number: 42,
    from: 1_789_990_000,
    to: 1_790_030_000,
    generatedAt: 1_790_030_000,
    generatedBy: 'Morgan',
    store: STORE,
    totals: {
      sales: line(12, 15_400),
      refunds: line(1, 450),
      voids: line(1, 300),
      declinedCount: 2,
      netCents: 14_950,
      tipsCents: 1_250,
      taxCents: 980,
      byBrand: [{ key: 'visa', label: 'Visa', sales: line(8, 10_000), refunds: line(1, 450), tipsCents: 800 }],
      byEntryMode: [{ key: 'chip', label: 'Chip', sales: line(12, 15_400), refunds: line(0, 0), tipsCents: 1_250 }],
    },
    cashTenders: { sales: line(5, 3_200), refunds: line(0, 0), taxCents: 150 },
    allTenders: { sales: line(17, 18_600), refunds: line(1, 450), netCents: 18_150, taxCents: 1_130 },
    cashCount: { floatCents: 10_000, countedCents: 13_150, expectedCents: 13_200, overShortCents: -50 },
    cash: { salesCents: 3_200, refundsCents: 0, expectedCents: 3_200 },
    cartSales: { carts: 9, items: [{ name: 'Latte (Large) + Extra shot', quantity: 6, cents: 3_450 }, { name: 'Spring water 500 ml', quantity: 4, cents: 800 }], discountsCents: 100 },
    byEmployee: [{ key: '1', label: 'Ann', sales: line(12, 15_400), refunds: line(1, 450), tipsCents: 1_250 }],
    byHour: Array.from({ length: 24 }, (_, hour) => ({ hour, count: hour === 8 ? 5 : hour === 9 ? 7 : 0, cents: hour === 8 ? 6_000 : hour === 9 ? 9_400 : 0 })),
    offlineCount: null,
    declinedAfterForwardCount: null,
  };
}

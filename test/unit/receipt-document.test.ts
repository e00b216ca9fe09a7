/**
 * The printed receipts' documents (shared/receipts/receipt-document.ts), read as the paper says
 * them: each is turned into plain text by receiptline's text command set at 48 and 32 characters.
 */
import { transform } from 'receiptline';
import { describe, expect, it } from 'vitest';
import { cartReceiptDocument, dayReportDocument, payLinkReceiptDocument, saleReceiptDocument } from '../../shared/receipts/receipt-document';
import { escapeMarkup, wrap } from '../../shared/receipts/receipt-layout';
import { FULL_PAN, STORE, cafeCart, cardSale, formatTime, zReport } from '../helpers/receipt-fixtures';

const paper = (doc: string, width: number) => transform(doc, { cpl: width, command: 'text' });
const lines = (text: string) => text.split('\n').map((l) => l.trimEnd());
/** A row: the label at the left, the value at the right edge of the paper. */
const rowOf = (text: string, label: string, value: string) => lines(text).find((l) => l.startsWith(label) && l.endsWith(value));

describe.each([48, 32])('receipts at %i characters a line', (width) => {
  it('a chip card sale: store, card (brand and last four), amounts, auth code, Ref; the signature on the merchant copy only', () => {
    const t = cardSale();
    const customer = paper(saleReceiptDocument(t, STORE, { copy: 'customer', width, formatTime }), width);
    const merchant = paper(saleReceiptDocument(t, STORE, { copy: 'merchant', width, formatTime }), width);
    for (const text of [customer, merchant]) {
      expect(lines(text).every((l) => l.length <= width)).toBe(true);
      // The store's name in double size: the text command set spaces its letters out.
      expect(text).toContain('C a f é   N o r d');
      expect(text).toContain('T1790000000');
      expect(text).toContain('Cashier: Ann');
      expect(rowOf(text, 'Card', 'Visa **** 1111')).toBeDefined();
      expect(rowOf(text, 'Subtotal', '$10.00')).toBeDefined();
      expect(rowOf(text, 'Tax', '$0.84')).toBeDefined();
      expect(rowOf(text, 'Tip', '$2.00')).toBeDefined();
      expect(rowOf(text, 'Total', '$12.84')).toBeDefined();
      expect(rowOf(text, 'Auth code', 'A1B2C3')).toBeDefined();
      expect(rowOf(text, 'Ref', '3456789A')).toBeDefined();
      expect(text).toContain('A0000000031010');
      expect(text).not.toContain(FULL_PAN);
    }
    expect(customer).toContain('Customer copy - Thank you!');
    // "Signature" is also the chip's verification method: the signature line is the X rule and the word under it.
    expect(customer).not.toMatch(/^X_+$/m);
    expect(customer).not.toMatch(/^ +Signature$/m);
    expect(merchant).toContain('Merchant copy');
    expect(merchant).toMatch(/^ +Signature$/m);
    expect(merchant).toMatch(/^X_{10,}$/m);
    expect(merchant.replace(/\s+/g, ' ')).toContain('according to my card issuer agreement.');
  });

  it('a refund prints the sale it refunds and a negative amount; a declined sale says no charge was made and asks no signature', () => {
    const refund = paper(saleReceiptDocument(cardSale({ kind: 'refund', amountCents: 500, previousTransactionId: 'tx-0000-0000-0000-00000042' }), STORE, { copy: 'merchant', width, formatTime }), width);
    expect(refund).toContain('REFUND');
    expect(rowOf(refund, 'Refund of sale', 'Ref 00000042')).toBeDefined();
    expect(rowOf(refund, 'Refund', '-$5.00')).toBeDefined();
    const declined = paper(saleReceiptDocument(cardSale({ state: 'declined' }), STORE, { copy: 'merchant', width, formatTime }), width);
    expect(declined).toContain('No charge was made.');
    expect(declined).not.toMatch(/^X_+$/m);
  });

  it('a check paid by electronic debit: its number and the authorization on the customer copy, signed on the merchant copy', () => {
    const t = cardSale({ entryMode: 'check', emv: null, cardBrand: 'Checking', checkNumber: '1001', signatureLine: false });
    const customer = paper(saleReceiptDocument(t, STORE, { copy: 'customer', width, formatTime }), width);
    const merchant = paper(saleReceiptDocument(t, STORE, { copy: 'merchant', width, formatTime }), width);
    expect(rowOf(customer, 'Check no.', '1001')).toBeDefined();
    expect(customer.replace(/\s+/g, ' ')).toContain('I authorize Café Nord to use the information from my check');
    expect(merchant).toMatch(/^X_+$/m);
    expect(merchant.replace(/\s+/g, ' ')).toContain('one-time electronic debit');
  });

  it('a cart: each line with its variant, quantity and modifiers, the discount, tax, cash tendered, change and the card', () => {
    const data = cafeCart();
    const customer = paper(cartReceiptDocument(data, STORE, { copy: 'customer', width, formatTime }), width);
    const merchant = paper(cartReceiptDocument(data, STORE, { copy: 'merchant', width, formatTime }), width);
    expect(lines(customer).every((l) => l.length <= width)).toBe(true);
    expect(rowOf(customer, 'Latte (Large)', '$10.50')).toBeDefined();
    expect(customer).toContain('  2 x $5.25');
    // A modifier's price is in the line's amount already: it is said beside its name, never in the
    // amount column, where a customer adding the column up would count it twice.
    expect(lines(customer).filter((l) => l.includes('Extra shot'))).toEqual(['  + Extra shot +$0.50']);
    expect(rowOf(customer, '  Discount', '-$0.50')).toBeDefined();
    expect(rowOf(customer, 'Spring water 500 ml', '$2.00')).toBeDefined();
    expect(rowOf(customer, 'Sales tax (8%)', '$0.80')).toBeDefined();
    expect(rowOf(customer, 'Total', '$12.80')).toBeDefined();
    expect(rowOf(customer, 'Cash tendered $20.00', '$7.00')).toBeDefined();
    expect(rowOf(customer, 'Change', '$13.00')).toBeDefined();
    expect(rowOf(customer, 'Card (terminal)', '$5.80')).toBeDefined();
    expect(rowOf(customer, 'Card', 'Visa **** 1111')).toBeDefined();
    expect(customer).not.toContain('Level 3');
    expect(merchant).toContain('Level 3 line items sent');
    expect(merchant).toMatch(/^X_+$/m);
    expect(customer).not.toMatch(/^X_+$/m);
    expect(customer + merchant).not.toContain(FULL_PAN);
  });

  it('a pay link payment: what it was for, what was asked and paid, what is still to pay', () => {
    const t = cardSale({ amountCents: 4000, requestedCents: 4000, taxCents: 0, tipCents: 0, entryMode: 'keyed', emv: null });
    const text = paper(payLinkReceiptDocument(t, { description: 'Catering deposit, order 77', amountCents: 10_000, remainingCents: 6_000 }, STORE, { copy: 'customer', width, formatTime }), width);
    expect(text).toContain('PAY LINK PAYMENT');
    expect(text).toContain('Catering deposit, order 77');
    expect(rowOf(text, 'Asked', '$100.00')).toBeDefined();
    expect(rowOf(text, 'Paid', '$40.00')).toBeDefined();
    expect(rowOf(text, 'Still to pay', '$60.00')).toBeDefined();
    expect(text).not.toContain(FULL_PAN);
  });

  it('the Z report: its number, card and cash, net, the drawer count, items sold with their choices, by employee and by hour', () => {
    const text = paper(dayReportDocument(zReport(), { width, formatTime }), width);
    expect(lines(text).every((l) => l.length <= width)).toBe(true);
    expect(text).toContain('Z REPORT 42 - DAY CLOSED');
    expect(rowOf(text, 'Card sales (12)', '$154.00')).toBeDefined();
    expect(rowOf(text, 'Cash taken (5)', '$32.00')).toBeDefined();
    expect(rowOf(text, 'Net, card + cash', '$181.50')).toBeDefined();
    expect(rowOf(text, 'Short', '-$0.50')).toBeDefined();
    expect(rowOf(text, '6 x Latte (Large) +', '$34.50')).toBeDefined();
    expect(rowOf(text, 'Ann (12)', '$154.00')).toBeDefined();
    expect(rowOf(text, '09:00 (7)', '$94.00')).toBeDefined();
    expect(text).not.toContain('10:00');
  });
});

describe('receipt layout', () => {
  it('prints markup characters in data as written, never as markup', () => {
    const doc = saleReceiptDocument(cardSale({ clerkName: 'A|n_n "the" `boss` {x} ~^' }), { ...STORE, name: '---' }, { copy: 'customer', width: 48, formatTime });
    const text = paper(doc, 48);
    expect(text).toContain('Cashier: A|n_n "the" `boss` {x} ~^');
    expect(text).toMatch(/^ *- - - *$/m);
  });

  it('wraps at word boundaries and cuts only a word longer than the line', () => {
    expect(wrap('Latte large with oat milk and honey', 16)).toEqual(['Latte large with', 'oat milk and', 'honey']);
    expect(wrap('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 10)).toEqual(['ABCDEFGHIJ', 'KLMNOPQRST', 'UVWXYZ']);
    expect(escapeMarkup('  Tea • 2 × 1 — “nice”')).toBe('~~Tea * 2 x 1 - \\"nice\\"');
  });
});

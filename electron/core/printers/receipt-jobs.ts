/**
 * What goes to the printer for each receipt (issue 23): the customer's copy, and the merchant's
 * when a signature line is due (a card whose verification asks for one, a check's debit) or the
 * cashier asked for it; an X or Z report once. Each copy is one print job holding its receiptline
 * document, made by shared/receipts/receipt-document.ts for the printer's characters per line;
 * this picks the copies and names them.
 * Simplification: a document is made for the printer in use when it is queued; a receipt still
 * waiting when the printer is changed for one of another width prints at the first one's width.
 */
import type { CartReceiptData, DayReport, StoreSettings, TransactionView } from '../../../shared/ipc/contract';
import { shortRefOf } from '../../../shared/short-ref';
import { cartReceiptDocument, dayReportDocument, payLinkReceiptDocument, saleReceiptDocument, type PayLinkFacts, type ReceiptCopy, type ReceiptStore } from '../../../shared/receipts/receipt-document';
import type { NewPrintJob } from './print-queue';

/** Unix seconds as the receipt prints them, in this computer's time zone ("Nov 28, 2026, 2:41 PM"). */
export function receiptTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

const copyWords = (copy: ReceiptCopy) => (copy === 'merchant' ? 'merchant copy' : 'customer copy');

/** Whether a transaction's merchant copy carries a signature line (so it prints without being asked). */
export const signatureDue = (t: TransactionView) => t.state !== 'declined' && (t.signatureLine || t.entryMode === 'check');

/** A transaction's receipt; a payment made on a pay link's page (`payLink`) prints as one. */
export function saleJobs(t: TransactionView, o: { store: ReceiptStore; width: number; settings: StoreSettings; merchantCopy: boolean; payLink?: PayLinkFacts | null }): NewPrintJob[] {
  const copies: ReceiptCopy[] = o.merchantCopy || signatureDue(t) ? ['customer', 'merchant'] : ['customer'];
  const tips = o.settings.tipsEnabled ? { rules: o.settings, percents: o.settings.tipPercents } : null;
  return copies.map((copy) => ({
    what: t.kind === 'refund' ? 'refund' : o.payLink ? 'pay-link' : 'receipt',
    ref: t.id,
    copy,
    title: `${t.kind === 'refund' ? 'refund' : o.payLink ? 'pay link payment' : 'receipt'} ${shortRefOf(t.id)}, ${copyWords(copy)}`,
    document:
      o.payLink && t.kind !== 'refund'
        ? payLinkReceiptDocument(t, o.payLink, o.store, { copy, width: o.width, formatTime: receiptTime })
        : saleReceiptDocument(t, o.store, { copy, width: o.width, formatTime: receiptTime }, { tips }),
  }));
}

export function cartJobs(data: CartReceiptData, o: { store: ReceiptStore; width: number; merchantCopy: boolean }): NewPrintJob[] {
  const signature = data.cart.tenders.some((x) => (x.status === 'approved' || x.status === 'reversed') && data.cards[x.id]?.signatureLine);
  const copies: ReceiptCopy[] = o.merchantCopy || signature ? ['customer', 'merchant'] : ['customer'];
  return copies.map((copy) => ({
    what: 'cart',
    ref: data.cart.id,
    copy,
    title: `cart sale ${shortRefOf(data.cart.id)}, ${copyWords(copy)}`,
    document: cartReceiptDocument(data, o.store, { copy, width: o.width, formatTime: receiptTime }),
  }));
}

export function reportJob(report: DayReport, width: number): NewPrintJob {
  return {
    what: 'report',
    ref: report.kind === 'z' ? `z-${report.number}` : 'x',
    copy: null,
    title: report.kind === 'z' ? `Z report #${report.number}` : 'X report',
    document: dayReportDocument(report, { width, formatTime: receiptTime }),
  };
}

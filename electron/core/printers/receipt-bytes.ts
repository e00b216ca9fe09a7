/**
 * A receiptline document as ESC/POS bytes for one printer: its characters per line and whether
 * it cuts. PROVISIONAL: replaced by electron/devices/receipt-encoding.ts (branch i23-printer-dev)
 * when it lands; kept to this one function so the swap is one import.
 */
import { transform } from 'receiptline';
import type { PrinterSettings } from '../../../shared/ipc/contract';

export function receiptBytes(document: string, p: Pick<PrinterSettings, 'charsPerLine' | 'cut'>): Uint8Array {
  const out = transform(document, { cpl: p.charsPerLine, encoding: 'cp437', cutting: p.cut, command: 'escpos', spacing: false });
  return Buffer.from(out, 'binary');
}

/**
 * Printing a receipt: ask the core first (in Electron it can print or save a PDF
 * itself); the node host answers `use_browser_print`, and then the browser's own
 * print dialog prints the page, which @media print reduces to the receipt alone.
 */
import { ringup } from '../bridge/bridge';

export async function printReceipt(transactionId: string): Promise<string | null> {
  const r = await ringup.receiptPrint({ id: transactionId });
  if (r.ok) return null;
  if (r.error.code === 'use_browser_print') {
    window.print();
    return null;
  }
  return r.error.message;
}

/**
 * Printing a receipt: ask the core first. With a receipt printer registered it prints there
 * (the customer copy, and the merchant's when a signature line is due or asked for) and says
 * "Printed" or why it waits for the printer; in Electron without one it prints or saves a PDF
 * itself; the node host without one answers `use_browser_print`, and then the browser's own
 * print dialog prints the page, which @media print reduces to the receipt alone.
 */
import { PRINT_WORDS, type PrintOutcome } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { hasPrinter } from '../devices/printer-status-store';

/** What the screen says after a print: printed, waiting for the printer (kept, prints by itself), or an error. */
export interface PrintNote {
  tone: 'ok' | 'wait' | 'error';
  text: string;
}

export function noteOf(o: PrintOutcome): PrintNote {
  return o.state === 'printed' ? { tone: 'ok', text: PRINT_WORDS.printed(o.copies) } : { tone: 'wait', text: PRINT_WORDS.waiting(o.why) };
}

export async function printReceipt(transactionId: string, merchantCopy = false): Promise<PrintNote | null> {
  const r = await ringup.receiptPrint({ id: transactionId, ...(merchantCopy ? { merchantCopy } : {}) });
  if (r.ok) return r.value.printer ? noteOf(r.value.printer) : null;
  if (r.error.code === 'use_browser_print') {
    window.print();
    return null;
  }
  return { tone: 'error', text: r.error.message };
}

/** A cart sale's receipt: on the receipt printer when one is registered, else the browser's print. */
export async function printCartReceipt(cartId: string, merchantCopy = false): Promise<PrintNote | null> {
  // No printer: the browser's print at once, still inside the click (as before issue 23).
  if (!hasPrinter()) {
    window.print();
    return null;
  }
  const r = await ringup.printersPrintCart({ cartId, ...(merchantCopy ? { merchantCopy } : {}) });
  if (r.ok) return noteOf(r.value);
  if (r.error.code === 'use_browser_print') {
    window.print();
    return null;
  }
  return { tone: 'error', text: r.error.message };
}

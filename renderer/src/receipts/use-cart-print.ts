/**
 * A cart sale's receipt from its screens (the Paid screen, Cart sales): Print sends it to the
 * receipt printer when one is registered (else the browser's print), and says what became of it.
 * With `auto`, a paid cart's receipt prints once by itself as the Paid screen first shows it
 * (only on a receipt printer: the browser's print dialog is never opened unasked).
 */
import { useCallback, useEffect, useState } from 'react';
import { hasPrinter } from '../devices/printer-status-store';
import { printCartReceipt, type PrintNote } from './print-receipt';

/** Carts printed by themselves in this window: a Paid screen shown again does not print again. */
const autoPrinted = new Set<string>();

export function useCartPrint(cartId: string | null, auto = false): { print(): void; note: PrintNote | null } {
  const [note, setNote] = useState<PrintNote | null>(null);
  useEffect(() => {
    setNote(null);
    if (!auto || !cartId || autoPrinted.has(cartId) || !hasPrinter()) return;
    autoPrinted.add(cartId);
    void printCartReceipt(cartId).then(setNote);
  }, [cartId, auto]);
  const print = useCallback(() => {
    if (cartId) void printCartReceipt(cartId).then(setNote);
  }, [cartId]);
  return { print, note };
}

/**
 * The receipt printer's and the cash drawer's state as the core pushes it (`printer:status`):
 * ready, paper low, out of paper, cover open, offline; the drawer open or closed, and flagged
 * when left open past the store's setting; how many prints wait. Counter-wide, not a user's
 * work: the printer and the drawer belong to the counter whoever is signed in.
 */
import { create } from 'zustand';
import type { PrinterStatusView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface PrinterStatusState {
  status: PrinterStatusView | null;
  load(): Promise<void>;
}

export const usePrinterStatusStore = create<PrinterStatusState>((set) => ({
  status: null,
  async load() {
    const r = await ringup.printersStatus();
    if (r.ok) set({ status: r.value });
  },
}));

ringup.on('printer:status', (status) => usePrinterStatusStore.setState({ status }));

/** Whether receipts go to a registered printer (else the browser's print). */
export const hasPrinter = () => (usePrinterStatusStore.getState().status?.state ?? 'none') !== 'none';

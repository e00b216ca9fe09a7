/** The installer's list of serial barcode scanners (issue 23, point 5), with where the core is with each one's port. */
import { createUserStore } from '../auth/user-store';
import type { BarcodeScannerRecord } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface BarcodeScannersState {
  scanners: BarcodeScannerRecord[] | null;
  error: string | null;
  load(): Promise<void>;
}

export const useBarcodeScannersStore = createUserStore<BarcodeScannersState>((set) => ({
  scanners: null,
  error: null,
  async load() {
    const r = await ringup.barcodeScanners();
    set(r.ok ? { scanners: r.value, error: null } : { error: r.error.message });
  },
}));

/** The state in a few words, for the list and the editor. */
export function barcodeStateWords(s: BarcodeScannerRecord): string {
  if (s.state === 'listening') return 'listening';
  if (s.state === 'testing') return 'lent to a test';
  if (s.state === 'refused') return 'not opened';
  return 'not plugged in';
}

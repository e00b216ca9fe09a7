/** The installer's view of the devices: terminals, scanners, receipt printers and the choices the forms offer. */
import { createUserStore } from '../auth/user-store';
import type { InstallerData, PrinterRecord } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

export type Selection = { kind: 'terminal'; id: string | null } | { kind: 'scanner'; id: string | null } | { kind: 'barcode'; id: string | null } | { kind: 'printer'; id: string | null };

interface InstallerState {
  data: InstallerData | null;
  printers: PrinterRecord[];
  error: string | null;
  selection: Selection;
  load(): Promise<void>;
  select(s: Selection): void;
}

export const useInstallerStore = createUserStore<InstallerState>((set, get) => ({
  data: null,
  printers: [],
  error: null,
  selection: { kind: 'terminal', id: null },
  async load() {
    const [r, p] = await Promise.all([ringup.devicesInstallerData(), ringup.printersList()]);
    if (!r.ok) return set({ error: r.error.message });
    if (!p.ok) return set({ error: p.error.message });
    const first = r.value.terminals[0]?.id ?? null;
    const sel = get().selection;
    set({ data: r.value, printers: p.value, error: null, selection: sel.id === null && sel.kind === 'terminal' && first ? { kind: 'terminal', id: first } : sel });
  },
  select: (selection) => set({ selection }),
}));

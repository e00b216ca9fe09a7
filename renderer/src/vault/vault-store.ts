/** Saved cards: the customers found, the one selected, and refreshing after a change. */
import { createUserStore } from '../auth/user-store';
import type { ContactView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface VaultState {
  text: string;
  contacts: ContactView[];
  loading: boolean;
  error: string | null;
  selectedId: string | null;
  setText(text: string): void;
  load(): Promise<void>;
  select(id: string | null): void;
}

let generation = 0;

export const useVaultStore = createUserStore<VaultState>((set, get) => ({
  text: '',
  contacts: [],
  loading: false,
  error: null,
  selectedId: null,
  setText: (text) => {
    set({ text });
    void get().load();
  },
  async load() {
    const g = ++generation;
    set({ loading: true });
    const r = await ringup.vaultContacts({ text: get().text });
    if (g !== generation) return;
    if (!r.ok) return set({ loading: false, error: r.error.message });
    const sel = get().selectedId;
    set({ loading: false, error: null, contacts: r.value, selectedId: sel && r.value.some((c) => c.id === sel) ? sel : (r.value[0]?.id ?? null) });
  },
  select: (selectedId) => set({ selectedId }),
}));

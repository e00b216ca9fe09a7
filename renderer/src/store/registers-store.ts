/** The Registers screen's list and the one-time code just made (a user store: the next person starts from a fresh load, and never sees the code). */
import type { RegisterView, StoreInvitation } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/result';
import type { FormError } from '../ui/form-failure';
import { ringup } from '../bridge/bridge';
import { createUserStore, userEpoch } from '../auth/user-store';
import { userList } from '../auth/user-list';

interface RegistersState {
  list: RegisterView[] | null;
  error: string | null;
  /** The code made by Add: shown once, gone when the manager closes it or someone else signs in. */
  invitation: StoreInvitation | null;
  load(): Promise<void>;
  /** Runs a rename or a remove; on success the list follows. */
  change(call: () => Promise<Result<RegisterView[]>>): Promise<FormError | null>;
  invite(): Promise<string | null>;
  closeInvitation(): void;
}

export const useRegistersStore = createUserStore<RegistersState>((set) => ({
  ...userList<RegisterView>((p) => set(p), () => ringup.storeRegisters()),
  invitation: null,
  async invite() {
    const epoch = userEpoch();
    const r = await ringup.storeInvite();
    if (epoch !== userEpoch()) return null;
    if (!r.ok) return r.error.message;
    set({ invitation: r.value });
    return null;
  },
  closeInvitation: () => set({ invitation: null }),
}));

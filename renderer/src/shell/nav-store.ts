/** Which screen is showing, and the overlays on top of it. */
import { createUserStore } from '../auth/user-store';

/** Every screen's name; its entry (label, key, roles) lives in shell/screen-registry.ts, its view in shell/screen-views.tsx. */
export type ScreenName = 'sale' | 'transactions' | 'system' | 'manage' | 'devices' | 'batches' | 'reports' | 'vault' | 'settings' | 'audit' | 'users' | 'gateway' | 'recurring' | 'outbox' | 'paylinks' | 'queue' | 'catalogue' | 'cartsales' | 'registers';

interface NavState {
  screen: ScreenName;
  helpOpen: boolean;
  /** Counts every go(): a screen can tell "opened again" (F2 on the sale screen starts a new sale). */
  visit: number;
  /** Why the last function key pressed did nothing for this user (issue 21, point 12); cleared by the next go(). */
  keyNote: string | null;
  go(screen: ScreenName): void;
  setHelp(open: boolean): void;
  sayKeyNote(note: string): void;
}

// A user store: the next person starts on the sale screen with no overlay open.
export const useNavStore = createUserStore<NavState>((set) => ({
  screen: 'sale',
  helpOpen: false,
  visit: 0,
  keyNote: null,
  go: (screen) => set((s) => ({ screen, visit: s.visit + 1, keyNote: null })),
  setHelp: (helpOpen) => set({ helpOpen }),
  sayKeyNote: (keyNote) => set({ keyNote }),
}));

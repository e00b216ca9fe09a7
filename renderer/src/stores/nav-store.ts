/** Which screen is showing, and the overlays on top of it. */
import { createUserStore } from './user-store';

/** Every screen's name; its entry (label, key, roles) lives in screens/screen-registry.tsx. */
export type ScreenName = 'sale' | 'transactions' | 'system' | 'manage' | 'devices' | 'batches' | 'reports' | 'vault' | 'settings' | 'audit' | 'users' | 'gateway' | 'recurring' | 'outbox' | 'paylinks' | 'queue' | 'catalogue' | 'cartsales';

interface NavState {
  screen: ScreenName;
  helpOpen: boolean;
  /** Counts every go(): a screen can tell "opened again" (F2 on the sale screen starts a new sale). */
  visit: number;
  go(screen: ScreenName): void;
  setHelp(open: boolean): void;
}

// A user store: the next person starts on the sale screen with no overlay open.
export const useNavStore = createUserStore<NavState>((set) => ({
  screen: 'sale',
  helpOpen: false,
  visit: 0,
  go: (screen) => set((s) => ({ screen, visit: s.visit + 1 })),
  setHelp: (helpOpen) => set({ helpOpen }),
}));

/** Which screen is showing, and the overlays on top of it. */
import { create } from 'zustand';

/** Every screen's name; its entry (label, key, roles) lives in screens/screen-registry.tsx. */
export type ScreenName = 'sale' | 'transactions' | 'system' | 'manage';

interface NavState {
  screen: ScreenName;
  helpOpen: boolean;
  /** Counts every go(): a screen can tell "opened again" (F2 on the sale screen starts a new sale). */
  visit: number;
  go(screen: ScreenName): void;
  setHelp(open: boolean): void;
}

export const useNavStore = create<NavState>((set) => ({
  screen: 'sale',
  helpOpen: false,
  visit: 0,
  go: (screen) => set((s) => ({ screen, visit: s.visit + 1 })),
  setHelp: (helpOpen) => set({ helpOpen }),
}));

/** Which screen is showing, and the overlays on top of it. */
import { create } from 'zustand';

/** Every screen's name; its entry (label, key, roles) lives in screens/screen-registry.tsx. */
export type ScreenName = 'sale' | 'transactions' | 'system' | 'manage' | 'devices' | 'batches' | 'reports' | 'vault';

interface NavState {
  screen: ScreenName;
  helpOpen: boolean;
  go(screen: ScreenName): void;
  setHelp(open: boolean): void;
}

export const useNavStore = create<NavState>((set) => ({
  screen: 'sale',
  helpOpen: false,
  go: (screen) => set({ screen }),
  setHelp: (helpOpen) => set({ helpOpen }),
}));

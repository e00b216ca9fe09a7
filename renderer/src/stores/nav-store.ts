/** Which screen is showing, and the overlays on top of it. */
import { create } from 'zustand';

export type ScreenName = 'sale' | 'transactions' | 'system';

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

/**
 * The store settings as the core has them (counter-wide, not a user's work): loaded
 * once someone signs in, and followed when a manager saves new ones in any window.
 */
import { create } from 'zustand';
import type { StoreSettings } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface SettingsState {
  settings: StoreSettings | null;
  error: string | null;
  load(): Promise<void>;
  /** Saves (managers); returns the error message and field messages, or null when saved. */
  save(next: StoreSettings): Promise<{ message: string; fields: Record<string, string[]> } | null>;
}

export const useSettingsStore = create<SettingsState>((set) => ({
  settings: null,
  error: null,
  async load() {
    const r = await ringup.settingsGet();
    set(r.ok ? { settings: r.value, error: null } : { error: r.error.message });
  },
  async save(next) {
    const r = await ringup.settingsUpdate(next);
    if (!r.ok) return { message: r.error.message, fields: r.error.fields ?? {} };
    set({ settings: r.value, error: null });
    return null;
  },
}));

ringup.on('settings:changed', (settings) => useSettingsStore.setState({ settings }));

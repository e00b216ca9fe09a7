/**
 * Light or dark. Follows the system (prefers-color-scheme) until the cashier picks
 * one with the toggle; the choice is remembered on this computer.
 */
import { create } from 'zustand';

export type Theme = 'light' | 'dark';
const KEY = 'ringup.theme';

function systemTheme(): Theme {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function initialTheme(): Theme {
  const saved = window.localStorage.getItem(KEY);
  return saved === 'light' || saved === 'dark' ? saved : systemTheme();
}

function apply(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

interface ThemeState {
  theme: Theme;
  toggle(): void;
  set(theme: Theme): void;
}

export const useThemeStore = create<ThemeState>((set, get) => {
  const theme = initialTheme();
  apply(theme);
  // Until the cashier picks a theme, follow the system's as it changes (e.g. at dusk).
  window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', (e) => {
    if (window.localStorage.getItem(KEY)) return;
    const next: Theme = e.matches ? 'dark' : 'light';
    apply(next);
    set({ theme: next });
  });
  return {
    theme,
    toggle: () => get().set(get().theme === 'dark' ? 'light' : 'dark'),
    set: (next) => {
      window.localStorage.setItem(KEY, next);
      apply(next);
      set({ theme: next });
    },
  };
});

/**
 * Who is signed in at THIS window. The core holds one session per window (a new tab
 * or window starts signed out); this mirrors it. Whenever the person changes — sign-out,
 * Switch user, an idle lock, a sign-in — every user store is reset (user-store.ts).
 */
import { create } from 'zustand';
import type { AuthLock, PosUser, Session } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { resetUserStores } from './user-store';

interface SessionState {
  loaded: boolean;
  session: Session | null;
  users: PosUser[];
  defaultPinsActive: boolean;
  /** Connection-level failure (no token, core gone): the app shows only this. */
  connectionError: string | null;
  /** Why the sign-in screen is showing, when the core locked this window. */
  lock: AuthLock | null;
  load(): Promise<void>;
  signIn(userId: string, pin: string): Promise<string | null>;
  signOut(): Promise<void>;
}

export const useSessionStore = create<SessionState>((set, get) => ({
  loaded: false,
  session: null,
  users: [],
  defaultPinsActive: false,
  connectionError: null,
  lock: null,
  async load() {
    const [info, session] = await Promise.all([ringup.authUsers(), ringup.authSession()]);
    if (!info.ok) return set({ loaded: true, connectionError: info.error.message });
    set({
      loaded: true,
      users: info.value.users,
      defaultPinsActive: info.value.defaultPinsActive,
      session: session.ok ? session.value : null,
      connectionError: null,
    });
  },
  async signIn(userId, pin) {
    const r = await ringup.authSignIn({ userId, pin });
    if (!r.ok) return r.error.message;
    // The core announces the session (auth:session) before it answers; when that event
    // has already switched this window to the user, the reset is done. A second one,
    // a moment later, would throw away the sale they have started meanwhile.
    if (get().session?.user.id !== r.value.user.id) resetUserStores();
    set({ session: r.value, lock: null });
    return null;
  },
  async signOut() {
    // Cleared before the core answers: nothing of this person's work stays on screen.
    resetUserStores();
    set({ session: null, lock: null });
    await ringup.authSignOut();
  },
}));

// The core ended or changed this window's session (an idle lock, a sign-in elsewhere in this window).
ringup.on('auth:session', (session) => {
  const before = useSessionStore.getState().session;
  if (before?.user.id !== session?.user.id) resetUserStores();
  useSessionStore.setState({ session });
});
// A manager changed the counter's users (in any window): the sign-in screen lists them as they are now.
ringup.on('auth:users-changed', (users) => {
  useSessionStore.setState({ users });
});
ringup.on('auth:locked', (lock) => {
  resetUserStores();
  useSessionStore.setState({ session: null, lock });
});

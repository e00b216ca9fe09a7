/** Who is signed in at this counter; the core holds the session, this mirrors it. */
import { create } from 'zustand';
import type { PosUser, Session } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface SessionState {
  loaded: boolean;
  session: Session | null;
  users: PosUser[];
  defaultPinsActive: boolean;
  /** Connection-level failure (no token, core gone): the app shows only this. */
  connectionError: string | null;
  load(): Promise<void>;
  signIn(userId: string, pin: string): Promise<string | null>;
  signOut(): Promise<void>;
}

export const useSessionStore = create<SessionState>((set) => ({
  loaded: false,
  session: null,
  users: [],
  defaultPinsActive: false,
  connectionError: null,
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
    set({ session: r.value });
    return null;
  },
  async signOut() {
    await ringup.authSignOut();
    set({ session: null });
  },
}));

// Another window of the same core signed someone in or out: follow it.
ringup.on('auth:session', (session) => useSessionStore.setState({ session }));

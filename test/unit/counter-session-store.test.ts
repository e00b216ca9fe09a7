/**
 * A sign-in resets the screens once. The core announces the new session (the
 * `auth:session` event) before it answers the sign-in call; the window already reset
 * for that event, so the answer must not reset again — a second reset, arriving a
 * moment later, remounted the screen under a cashier who had started the next sale
 * (typed digits lost, focus pulled away; the e2e flakiness on a loaded machine).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../shared/ipc/contract';

const listeners = new Map<string, (payload: unknown) => void>();
const session = (id: string): Session => ({ user: { id, name: id, role: 'cashier', mustChangePin: false } as unknown as Session['user'], signedInAt: Date.now() });
let eventFirst = true;

vi.mock('../../renderer/src/bridge/bridge', () => ({
  ringup: {
    on: (event: string, fn: (payload: unknown) => void) => {
      listeners.set(event, fn);
      return () => listeners.delete(event);
    },
    authSignIn: async ({ userId }: { userId: string }) => {
      const s = session(userId);
      if (eventFirst) listeners.get('auth:session')?.(s);
      await new Promise((r) => setTimeout(r, 5));
      return { ok: true, value: s };
    },
    authSignOut: async () => ({ ok: true, value: null }),
  },
}));

const { useSessionStore } = await import('../../renderer/src/auth/session-store');
const { userEpoch } = await import('../../renderer/src/auth/user-store');

describe('session store', () => {
  beforeEach(async () => {
    await useSessionStore.getState().signOut();
  });

  it('resets once when the core announces the session before it answers', async () => {
    eventFirst = true;
    const before = userEpoch();
    const pending = useSessionStore.getState().signIn('casey', '0000');
    // The event has landed: the window shows Casey and has reset for her.
    expect(useSessionStore.getState().session?.user.id).toBe('casey');
    const afterEvent = userEpoch();
    expect(afterEvent).toBe(before + 1);
    expect(await pending).toBeNull();
    expect(userEpoch()).toBe(afterEvent);
  });

  it('resets when the answer comes first, and again for the next person', async () => {
    eventFirst = false;
    const before = userEpoch();
    expect(await useSessionStore.getState().signIn('casey', '0000')).toBeNull();
    expect(userEpoch()).toBe(before + 1);
    await useSessionStore.getState().signOut();
    const mid = userEpoch();
    eventFirst = true;
    await useSessionStore.getState().signIn('morgan', '1234');
    expect(useSessionStore.getState().session?.user.id).toBe('morgan');
    expect(userEpoch()).toBe(mid + 1);
  });
});

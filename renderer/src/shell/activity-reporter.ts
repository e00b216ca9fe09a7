/**
 * Tells the core that someone is using this window (a key, a tap, a scroll), so its
 * idle lock starts over. At most one report per REPORT_EVERY_MS: the idle lock is at
 * least a minute, so a report a few seconds late never locks a person who is working.
 */
import { ringup } from '../bridge/bridge';
import { useSessionStore } from '../auth/session-store';

export const REPORT_EVERY_MS = 5_000;

export function startActivityReporter(): () => void {
  let last = 0;
  const onActivity = () => {
    if (!useSessionStore.getState().session) return;
    const now = Date.now();
    if (now - last < REPORT_EVERY_MS) return;
    last = now;
    void ringup.authActivity();
  };
  const events = ['keydown', 'pointerdown', 'wheel'] as const;
  for (const e of events) window.addEventListener(e, onActivity, { capture: true, passive: true });
  return () => {
    for (const e of events) window.removeEventListener(e, onActivity, { capture: true });
  };
}

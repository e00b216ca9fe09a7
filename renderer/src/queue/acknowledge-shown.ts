/**
 * The power-cut window of the offline queue (issue 20, point 3): a sale approved offline is
 * sent to the gateway only once the screen that took it has shown "Approved offline". This
 * hook tells the core so (`queue:acknowledge`) after the screen has rendered the outcome:
 * the effect runs after React committed it, and the call waits one frame more so the browser
 * has painted it. A sale whose acknowledgement never arrives (the power went, the window
 * closed) is shown to the next person who signs in (unconfirmed-offline-dialog.tsx).
 *
 * Only screens that just received the outcome of their own payment call this (the sale result,
 * a cart's card payment): never a screen that merely lists an offline sale later.
 */
import { useEffect } from 'react';
import { isOfflinePlaceholder } from '../../../shared/offline-ref';
import { ringup } from '../bridge/bridge';

/** Acknowledged from this window already (a re-render, a double click answered with the same sale). */
const sent = new Set<string>();

/** Acknowledges the offline sale `id` (its offline-… id) once it is on screen; anything else is ignored. */
export function useAcknowledgeShown(id: string | null | undefined): void {
  useEffect(() => {
    if (!isOfflinePlaceholder(id) || sent.has(id)) return;
    sent.add(id);
    // Not cancelled when the screen moves on at once: by then it has been shown.
    requestAnimationFrame(() =>
      setTimeout(() => {
        void ringup.queueAcknowledge({ id }).then((r) => {
          // Not acknowledged (the connection dropped): the sign-in dialog will ask about it instead.
          if (!r.ok) sent.delete(id);
        });
      }, 0),
    );
  }, [id]);
}

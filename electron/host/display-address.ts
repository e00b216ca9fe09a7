/**
 * The customer display's address on the node host (issue 23, point 4): the app's own address with
 * `view=display` added to its #fragment beside the token (`http://127.0.0.1:P/#token=…&view=display`).
 * A second screen or a tablet on this computer opens it; so does `--window` in Chromium's app mode.
 * It carries the same per-launch token as the app's address: the page says hello with it, then
 * asks only the channels open before sign-in (shared/ipc/display.ts).
 */
import { DISPLAY_VIEW_FRAGMENT } from '../../shared/ipc/display';

export function displayUrlOf(appUrl: string): string {
  return `${appUrl}${appUrl.includes('#') ? '&' : '#'}${DISPLAY_VIEW_FRAGMENT}`;
}

/**
 * Whether this page is the customer display: its address's #fragment carries `view=display`
 * (`http://127.0.0.1:P/#token=…&view=display` from the node host, `app://ringup/index.html#view=display`
 * in Electron's second window). The token is taken out of the fragment by the bridge; the view stays.
 */
import { DISPLAY_VIEW_FRAGMENT } from '../../../shared/ipc/display';

export function isDisplayView(hash: string = window.location.hash): boolean {
  return hash.replace(/^#/, '').split('&').includes(DISPLAY_VIEW_FRAGMENT);
}

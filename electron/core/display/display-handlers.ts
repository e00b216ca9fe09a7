/** The `display:*` channels: the present state for a page that just opened, and the customer's tip pick. */
import type { HandlerMap } from '../../../shared/ipc/contract';
import { ok } from '../../../shared/result';
import type { CustomerDisplay } from './customer-display';

export function createDisplayHandlers(display: CustomerDisplay): Pick<HandlerMap, 'display:current' | 'display:pick-tip'> {
  return {
    'display:current': async () => ok(display.current()),
    'display:pick-tip': async (args) => display.pickTip(args),
  };
}

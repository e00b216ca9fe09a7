/**
 * Feeds the customer display from the answers of the handlers the counter calls — the cart's
 * (edits, cash, cards) and the sale screen's (a keyed sale, the terminal) — by wrapping those
 * channels of the core's handler map: the display never asks anything of its own, and a handler
 * does not know it is watched. Only the map the windows call is wrapped: the cart's own calls of
 * the sale services (TenderDeps.money) are not, so a cart's card shows once, as the cart's.
 * A watcher's error never reaches the counter: what it shows the customer is not worth a failed sale.
 */
import type { Channel, HandlerMap } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/result';
import type { CartAnswer, CustomerDisplay } from './customer-display';

const CART_CHANNELS: Partial<Record<Channel, CartAnswer>> = {
  'cart:current': 'edit',
  'cart:add-item': 'edit',
  'cart:add-code': 'edit',
  'cart:add-open': 'edit',
  'cart:set-quantity': 'edit',
  'cart:remove-line': 'edit',
  'cart:set-line-discount': 'edit',
  'cart:set-cart-discount': 'edit',
  'cart:comp': 'edit',
  'cart:approve': 'edit',
  'cart:clear': 'edit',
  'cart:cancel': 'edit',
  'cart:adopt-partial': 'edit',
  'cart:collect': 'edit',
  'cart:put-back': 'edit',
  'cart:pay-cash': 'cash',
  'cart:pay-card': 'card',
  'cart:pay-saved': 'card',
  'cart:pay-terminal': 'card',
};

const SALE_CHANNELS: readonly Channel[] = ['sale:charge', 'devices:terminal-sale'];

type AnyHandler = (arg: unknown) => Promise<Result<unknown>>;

/**
 * The answer goes back to the counter first; the display follows on the next turn of the event
 * loop (setImmediate runs after the answer is on its way), so what the customer sees never
 * stands between a cashier's tap and its result.
 */
function watched(handler: AnyHandler, seen: (r: Result<unknown>) => void): AnyHandler {
  return async (arg) => {
    const r = await handler(arg);
    setImmediate(() => {
      try {
        seen(r);
      } catch (err) {
        console.error(`[display] ${err instanceof Error ? err.message : String(err)}`);
      }
    });
    return r;
  };
}

/** `handlers` with the cart's and the sale screen's channels reporting their answers to `display`. */
export function followForDisplay(handlers: HandlerMap, display: CustomerDisplay): HandlerMap {
  const out: Record<string, AnyHandler> = { ...(handlers as unknown as Record<string, AnyHandler>) };
  for (const [channel, how] of Object.entries(CART_CHANNELS) as Array<[Channel, CartAnswer]>) {
    out[channel] = watched(out[channel]!, (r) => {
      if (r.ok) display.cartAnswered(r.value as Parameters<CustomerDisplay['cartAnswered']>[0], how);
      else if (how !== 'edit') display.paymentFailed();
    });
  }
  for (const channel of SALE_CHANNELS) {
    out[channel] = watched(out[channel]!, (r) => {
      if (r.ok) display.saleAnswered(r.value as Parameters<CustomerDisplay['saleAnswered']>[0]);
      else display.paymentFailed();
    });
  }
  return out as unknown as HandlerMap;
}

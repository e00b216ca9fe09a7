/**
 * The cart's IPC handlers: lines, discounts, and its tenders. Every money step goes
 * through the existing sale path (`sale:charge`, `transactions:refund`, `transactions:void`,
 * `sale:void-partial`, each audited) — the cart adds no gateway call of its own except
 * the Level 3 save — and cash is recorded only in the app database.
 *
 * This file only binds: each channel's handler is a named function over its own small deps
 * (cart-lines, cart-discounts, pay-cash, pay-by-card, cancel-cart, collect-due, refund-lines,
 * adopt-partial, cart-reads, current-cart), and what they share for the life of the core —
 * the carts in the database, the card tenders in flight in this process, one queue of money
 * steps per cart — is made once here.
 */
import type { GuardSettings } from '../../../shared/amount-guards';
import type { HandlerMap } from '../../../shared/ipc/contract';
import type { TaxCategory } from '../../../shared/ipc/catalogue';
import type { GatewayClient } from '../../client/gateway-client';
import type { UserDirectory } from '../auth/users';
import type { Catalogue } from '../catalogue/catalogue';
import type { CoreEvents } from '../platform/events';
import { OneAtATime } from '../platform/one-at-a-time';
import type { PosDatabase } from '../platform/pos-database';
import type { OfflineSales } from '../queue/offline-sales';
import { adoptPartial } from './adopt-partial';
import { cancelCartHandler } from './cancel-cart';
import { approveDiscount, compCart, setCartDiscount, setLineDiscount } from './cart-discounts';
import { addCode, addItem, addOpen, clearCart, removeLine, setQuantity } from './cart-lines';
import { cartOfTransaction, cartReceipt, paidCarts, viewCart } from './cart-reads';
import { CartStore } from './cart-store';
import { collectDue, putBack } from './collect-due';
import { currentCart } from './current-cart';
import { InFlightTenders } from './in-flight-tenders';
import { payCash } from './pay-cash';
import { payCard, paySaved, payTerminal } from './pay-by-card';
import { refundLinesHandler } from './refund-lines';
import type { TenderRefs } from './tender-refs';

export { TENDER_COPY } from './tender-copy';
export { CART_RULES_KEY, cartRulesOf } from './cart-rules';

type CartHandlers = Pick<
  HandlerMap,
  | 'cart:current'
  | 'cart:add-item'
  | 'cart:add-code'
  | 'cart:add-open'
  | 'cart:set-quantity'
  | 'cart:remove-line'
  | 'cart:set-line-discount'
  | 'cart:set-cart-discount'
  | 'cart:comp'
  | 'cart:approve'
  | 'cart:clear'
  | 'cart:pay-cash'
  | 'cart:pay-card'
  | 'cart:pay-saved'
  | 'cart:pay-terminal'
  | 'cart:cancel'
  | 'cart:adopt-partial'
  | 'cart:view'
  | 'cart:receipt'
  | 'cart:sales'
  | 'cart:of-transaction'
  | 'cart:collect'
  | 'cart:put-back'
  | 'cart:refund-lines'
>;

export interface TenderDeps {
  db: PosDatabase;
  users: UserDirectory;
  catalogue: Catalogue;
  /** For the Level 3 save and reading the engine's view of a card transaction. */
  client: GatewayClient;
  events: CoreEvents;
  /** The store's sales tax rate (basis points) for the standard category. */
  taxRateBasisPoints: () => number;
  /** The store's amount guards: an open amount typed in, and each card tender, are held to them like a keyed sale. */
  guards: () => GuardSettings;
  /** The app's own money handlers (audited): the cart calls them, never the gateway directly. */
  money: Pick<HandlerMap, 'sale:charge' | 'sale:outcome' | 'sale:void-partial' | 'transactions:refund' | 'transactions:void' | 'transactions:view' | 'vault:charge' | 'devices:terminal-sale'>;
  /** The offline queue (issue 13): a card tender approved offline is withdrawn, or found under its gateway id once sent. */
  offline?: Pick<OfflineSales, 'withdraw' | 'item'>;
  /** Makes and binds each card tender's reference (issue 20, point 2): the screen's clientRef is only an attempt id. */
  refs: TenderRefs;
  now?: () => number;
}

export function createTenderHandlers(deps: TenderDeps): CartHandlers {
  const now = deps.now ?? Date.now;
  const taxRate = (category: string) => ((category as TaxCategory) === 'exempt' ? 0 : deps.taxRateBasisPoints());
  const store = new CartStore(deps.db, taxRate, now);
  /** Tenders whose gateway call is running in this process (the others that are pending were cut off by a restart). */
  const inFlight = new InFlightTenders();
  /** Money given back from one cart runs one step at a time: two quick returns of the same line must not both see it unreturned. */
  const oneAtATime = new OneAtATime();
  const d = { ...deps, now, store, inFlight, oneAtATime };

  return {
    'cart:current': () => currentCart(d),
    'cart:add-item': (args) => addItem(d, args),
    'cart:add-code': (args) => addCode(d, args),
    'cart:add-open': (args) => addOpen(d, args),
    'cart:set-quantity': (args) => setQuantity(d, args),
    'cart:remove-line': (args) => removeLine(d, args),
    'cart:approve': (args) => approveDiscount(d, args),
    'cart:set-line-discount': (args) => setLineDiscount(d, args),
    'cart:set-cart-discount': (args) => setCartDiscount(d, args),
    'cart:comp': (args) => compCart(d, args),
    'cart:clear': () => clearCart(d),
    'cart:pay-cash': (args) => payCash(d, args),
    'cart:pay-card': (args) => payCard(d, args),
    'cart:pay-saved': (args) => paySaved(d, args),
    'cart:pay-terminal': (args) => payTerminal(d, args),
    'cart:cancel': (args) => cancelCartHandler(d, args),
    'cart:collect': (args) => collectDue(d, args),
    'cart:put-back': () => putBack(d),
    'cart:refund-lines': (args) => refundLinesHandler(d, args),
    'cart:adopt-partial': (args) => adoptPartial(d, args),
    'cart:view': (args) => viewCart(d, args),
    'cart:receipt': (args) => cartReceipt(d, args),
    'cart:sales': (args) => paidCarts(d, args),
    'cart:of-transaction': (args) => cartOfTransaction(d, args),
  };
}

/**
 * Level 3 from the cart: after a card tender is approved, the engine's own view of the
 * transaction (its transaction_level3 expand, which it attaches for commercial BINs) says
 * whether the card is commercial; if so the cart's lines become the line items, checked with
 * the engine's shared schemas before sending (cart-level3.ts). The note goes on the merchant's
 * copy. It is sent by the core on the sale's behalf (a cashier's engine user may only sell).
 * Simplification: a split sale sends every line with each commercial-card tender (the
 * networks' Level 3 describes the order, not the tender's share).
 */
import type { Tender } from '../../../shared/cart/tender-machine';
import { validateLevel3 } from '../../../shared/payments/level3-schema';
import type { GatewayClient } from '../../client/gateway-client';
import { level3ViewOf } from '../level3/level3-handlers';
import type { PosDatabase } from '../platform/pos-database';
import { isOfflinePlaceholder } from '../../../shared/offline-ref';
import { LEVEL3_NOTES, level3FromCart, NETWORK_NAMES, plainLevel3Error } from './cart-level3';
import { cartRulesOf } from './cart-rules';
import type { CartStore } from './cart-store';

export interface SendLevel3Deps {
  db: PosDatabase;
  store: CartStore;
  /** The core's own client (Level 3 save and reading the engine's view of a card transaction). */
  client: GatewayClient;
}

/** Level 3 for an approved card tender on a commercial card; the note on the tender says what happened. */
export async function sendLevel3(deps: SendLevel3Deps, cartId: string, tender: Tender): Promise<void> {
  const { store } = deps;
  // Simplification: a card payment approved offline (issue 13) sends no Level 3 (the gateway has no record of it yet).
  if (!tender.transactionId || isOfflinePlaceholder(tender.transactionId)) return;
  try {
    const t = await deps.client.getTransactionExpanded(tender.transactionId, ['transaction_level3']);
    const l3 = level3ViewOf(t);
    if (!l3.applies || !l3.network) return; // a personal card: nothing to send, nothing to say
    const view = store.view(cartId);
    const built = level3FromCart(view, l3.network, cartRulesOf(deps.db).defaultCommodityCode);
    if (!built.ok) return store.setLevel3Note(tender.id, false, built.note);
    const v = validateLevel3(l3.network, built.data);
    if (!v.ok) return store.setLevel3Note(tender.id, false, plainLevel3Error(v.errors, view));
    await deps.client.saveLevel3(tender.transactionId, v.value);
    store.setLevel3Note(tender.id, true, LEVEL3_NOTES.sent(built.data.line_items.length, built.folded, NETWORK_NAMES[l3.network], l3.cardLabel));
  } catch (err) {
    store.setLevel3Note(tender.id, false, LEVEL3_NOTES.failed(`${err instanceof Error ? err.message.replace(/\.$/, '') : 'the gateway did not take it'}.`));
  }
}

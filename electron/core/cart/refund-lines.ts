/**
 * `cart:refund-lines`: a manager returns lines of a paid cart. Their total is shared over the
 * tenders that paid (allocateLineRefund): cash from the drawer, each card's share refunded
 * through the app's own audited refund. The lines are marked returned once anything went back,
 * so a retry can never give the same line twice; a share that failed is said in the message,
 * for a manager to refund from that card's sale by amount.
 */
import { allocateLineRefund } from '../../../shared/cart/cart-math';
import type { HandlerArg, HandlerMap, HandlerResults } from '../../../shared/ipc/contract';
import { isOfflinePlaceholder } from '../../../shared/offline-ref';
import { formatMoney as centsToDecimal } from '../../../shared/payments/money';
import { fail, ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';
import type { CoreEvents } from '../platform/events';
import type { OneAtATime } from '../platform/one-at-a-time';
import type { PosDatabase } from '../platform/pos-database';
import { OFFLINE_TENDER_COPY, type OfflineSales } from '../queue/offline-sales';
import { CART_MESSAGES, type CartStore } from './cart-store';
import { recordCash } from './cash-drawer';
import { TENDER_COPY } from './tender-copy';

export interface RefundLinesDeps {
  db: PosDatabase;
  users: UserDirectory;
  store: CartStore;
  events: CoreEvents;
  now: () => number;
  /** Two quick returns of the same line must not both see it unreturned. */
  oneAtATime: OneAtATime;
  offline?: Pick<OfflineSales, 'item'>;
  money: Pick<HandlerMap, 'transactions:refund'>;
}

export async function refundLinesHandler(deps: RefundLinesDeps, { cartId, lineIds }: HandlerArg<'cart:refund-lines'>): Promise<Result<HandlerResults['cart:refund-lines']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  if (!deps.store.exists(cartId)) return fail('not_found', CART_MESSAGES.noCart);
  return deps.oneAtATime.run(cartId, () => refundLines(deps, cartId, lineIds));
}

async function refundLines(deps: RefundLinesDeps, cartId: string, lineIds: readonly string[]): Promise<Result<HandlerResults['cart:refund-lines']>> {
  const { db, store } = deps;
  const view = store.view(cartId);
  if (view.status !== 'paid') return fail('conflict', TENDER_COPY.notPaid);
  const chosen = view.totals.lines.filter((l) => lineIds.includes(l.id) && !view.lines.find((x) => x.id === l.id)?.refunded);
  if (chosen.length === 0) return fail('conflict', TENDER_COPY.nothingToRefund);
  const lineTotal = chosen.reduce((a, l) => a + l.totalCents, 0);
  const tenders = view.tenders.filter((t) => t.status === 'approved');
  const shares = allocateLineRefund(lineTotal, tenders.map((t) => t.approvedCents - t.refundedCents));
  const done = new Map<string, number>();
  let refunded = 0;
  let cashBack = 0;
  const problems: string[] = [];
  for (let i = 0; i < tenders.length; i++) {
    const t = tenders[i]!;
    const cents = shares[i]!;
    if (cents <= 0) continue;
    if (t.kind === 'cash') {
      done.set(t.id, cents);
      cashBack += cents;
      refunded += cents;
      continue;
    }
    let id = t.transactionId!;
    if (isOfflinePlaceholder(id)) {
      // ── Offline store-and-forward (issue 13): only a sale the gateway has can be refunded.
      const q = deps.offline?.item(t.id);
      if (q?.state !== 'approved' || !q.transactionId) {
        problems.push(q?.state === 'pending' ? OFFLINE_TENDER_COPY.notSentYet : OFFLINE_TENDER_COPY.neverCharged);
        continue;
      }
      id = q.transactionId;
    }
    const r = await deps.money['transactions:refund']({ id, amountCents: cents });
    if (r.ok && r.value.approved) {
      done.set(t.id, cents);
      refunded += cents;
    } else problems.push(r.ok ? r.value.message : r.error.message);
  }
  if (problems.length > 0 && done.size === 0) return fail('gateway', problems[0]!);
  // The lines are marked returned once anything went back, so a retry can never give the same line twice;
  // a share that failed is said in the message, for a manager to refund from that card's sale by amount.
  db.transaction(() => {
    store.markLinesRefunded(cartId, chosen.map((l) => l.id), done);
    recordCash(db, { cartId, kind: 'refund', cents: cashBack, ts: deps.now() });
  })();
  if (cashBack > 0) deps.events.emit('drawer:open', { cartId, reason: 'cash-refund' });
  const message =
    problems.length === 0
      ? `Returned ${chosen.length} line${chosen.length === 1 ? '' : 's'}: $${centsToDecimal(refunded)}${cashBack > 0 ? `, of which $${centsToDecimal(cashBack)} in cash from the drawer` : ''}.`
      : `Only $${centsToDecimal(refunded)} of $${centsToDecimal(lineTotal)} went back: ${problems[0]} Refund the rest from that card's sale by amount.`;
  return ok({ cart: store.view(cartId), refundedCents: refunded, cashBackCents: cashBack, message });
}

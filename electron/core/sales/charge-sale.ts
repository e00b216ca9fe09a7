/**
 * `sale:charge`: a keyed card sale. The store's guards are enforced here whatever the screen
 * did; the transaction_api_id is the core's, bound to this tender before anything leaves
 * (tender-refs.ts), and the sale is on disk with its cashier before it leaves, so a lost
 * answer is looked up — never charged twice — even after a restart (lost-payments.ts). A
 * gateway that cannot be reached takes the sale into the offline queue (issue 13).
 *
 * Card data arrives once, here, goes straight into the gateway request and is dropped: it is
 * never logged, stored or returned (the gateway answers with first_six / last_four only).
 */
import type { HandlerArg, SaleOutcome } from '../../../shared/ipc/contract';
import type { StoreSettings } from '../../../shared/ipc/settings';
import { isExpDateCurrent } from '../../../shared/payments/exp-date';
import { luhnValid } from '../../../shared/payments/luhn';
import { formatMoney as centsToDecimal } from '../../../shared/payments/money';
import { fail, ok, type Result } from '../../../shared/result';
import { GatewayError, type GatewayClient } from '../../client/gateway-client';
import type { V2Transaction, V2TransactionCreate } from '../../client/v2-types';
import type { UserDirectory } from '../auth/users';
import { cardInstrument, type TenderRefs } from '../cart/tender-refs';
import { withGatewayFailure } from '../gateway/guarded-call';
import type { OneAtATime } from '../platform/one-at-a-time';
import type { OfflineSales } from '../queue/offline-sales';
import { cardRequestBase } from '../transactions/card-request-base';
import type { TransactionViews } from '../transactions/clerk-views';
import { toView } from '../transactions/transaction-view';
import { refuseAmount } from './amount-refusal';
import { clerkNumberOf, type ClerkRecords } from './clerk-records';
import { failureOf, type LostPayments } from './lost-payments';
import { restRefusal } from './rest-of-partial';
import { lookupAnswer, outcomeOf } from './sale-answer';
import { SALE_ERRORS } from './sale-errors';

export interface ChargeSaleDeps {
  client: GatewayClient;
  users: UserDirectory;
  settings: () => StoreSettings;
  now: () => number;
  locationId: string | undefined;
  productTransactionId: string | undefined;
  refs: TenderRefs;
  lost: LostPayments;
  offline?: Pick<OfflineSales, 'take'>;
  views: TransactionViews;
  clerks: ClerkRecords;
  /** Money steps of one sale one at a time: two quick charges cannot both collect the rest of a partial approval. */
  oneAtATime: OneAtATime;
}

export async function chargeSale(deps: ChargeSaleDeps, args: HandlerArg<'sale:charge'>): Promise<Result<SaleOutcome>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  const session = s.value;
  const total = args.subtotalCents + args.taxCents + args.tipCents;
  // The same guards as the screen's, enforced here whatever the screen did.
  const refused = refuseAmount(deps.settings(), { subtotalCents: args.subtotalCents, tipCents: args.tipCents, totalCents: total }, args);
  if (refused) return refused;
  if (!luhnValid(args.card.number)) return fail('bad_request', SALE_ERRORS.luhn, { 'card.number': [SALE_ERRORS.luhn] });
  if (!isExpDateCurrent(args.card.expiry, new Date(deps.now()))) return fail('bad_request', SALE_ERRORS.expired, { 'card.expiry': [SALE_ERRORS.expired] });
  // The reference is the core's, bound to this tender before anything leaves: the cart's, handed down, or this attempt's.
  const tender = { amountCents: total - args.tipCents, tipCents: args.tipCents, method: 'cc', action: 'sale', instrument: cardInstrument(args.card.number, args.card.expiry) } as const;
  const handed = deps.refs.handedDown(tender);
  if (!handed.ok) return handed;
  const made = handed.value !== null ? { ok: true as const, value: handed.value } : deps.refs.refFor(session, { scope: 'sale', attempt: args.clientRef, ...tender });
  if (!made.ok) {
    // This screen's own retry of a sale the core found after its answer was lost: that answer, once (lost-payments.ts).
    const again = made.error.code === 'already_answered' ? await deps.lost.answerForRetry(session, { scope: 'sale', attempt: args.clientRef, ...tender }) : null;
    return again ? lookupAnswer(deps.views, again) : made;
  }
  const ref = made.value;
  const request: V2TransactionCreate = {
    action: 'sale',
    ...cardRequestBase(deps),
    transaction_amount: centsToDecimal(total),
    ...(args.taxCents > 0 ? { tax: centsToDecimal(args.taxCents) } : {}),
    ...(args.tipCents > 0 ? { tip_amount: centsToDecimal(args.tipCents) } : {}),
    account_number: args.card.number,
    exp_date: args.card.expiry,
    cvv: args.card.cvv,
    billing_zip: args.card.zip,
    transaction_api_id: ref,
    clerk_number: clerkNumberOf(session.user.id),
  };
  // What goes to the offline queue carries the core's reference too (its transaction_api_id when forwarded).
  const queued = { ...args, clientRef: ref };
  // The rest of a partial approval: one at a time per first sale, so two quick charges cannot both collect it.
  const firstId = args.collectsRestOf;
  if (firstId) return deps.oneAtATime.run(firstId, () => withGatewayFailure(async () => (await restRefusal(deps, firstId, args)) ?? send()));
  return withGatewayFailure(send);

  async function send(): Promise<Result<SaleOutcome>> {
    // On disk with its cashier before it leaves: a lost answer is resumed after a restart too (lost-payments.ts).
    deps.lost.sending(ref, { way: 'keyed', session, amountCents: total, collectsRestOf: args.collectsRestOf ?? null });
    let t: V2Transaction;
    try {
      t = await deps.client.createTransaction(request);
    } catch (err) {
      const failure = failureOf(err);
      // ── Offline store-and-forward (issue 13): the connection was refused, so the sale never left; it waits in the offline queue.
      const offline = failure === 'unreachable' ? deps.offline?.take(queued, session) : null;
      if (failure !== 'lost' || offline) {
        deps.lost.answered(ref); // refused, or never left: nothing is unknown
        if (offline) return offline;
        throw err;
      }
      // No answer, but the request may have reached the gateway: unknown until known (`sale:outcome`, the core's sweep).
      deps.lost.lost(ref, request);
      let found: V2Transaction | null;
      try {
        found = await deps.client.findByApiId(ref, deps.locationId);
      } catch (lookupErr) {
        // ── Offline store-and-forward (issue 13): the gateway went away mid-request. Queueing is safe: the
        // forward carries the same transaction_api_id, so a sale the gateway did take comes back as the original.
        const taken = lookupErr instanceof GatewayError && lookupErr.status === 0 ? deps.offline?.take(queued, session) : null;
        if (taken?.ok) {
          deps.lost.answered(ref);
          return taken;
        }
        return fail('outcome_unknown', SALE_ERRORS.outcomeUnknown);
      }
      // No record yet proves nothing: the POST may still land. The screen keeps asking.
      if (!found) return fail('outcome_unknown', SALE_ERRORS.outcomeUnknown);
      return lookupAnswer(deps.views, await deps.lost.settle(ref, found, session));
    }
    // An answer that is not this tender (amount, card, method, action, another sale's record) is never counted.
    return deps.lost.counted(ref, t, session, (charged) => {
      deps.views.remember(charged.id, 'sale', session, args.collectsRestOf ?? null);
      return ok(outcomeOf(deps.views.withClerk(toView(charged))));
    });
  }
}

/**
 * `devices:check-pay`: a scanned check pays by ACH (debit, SEC code POP, with the MICR line as
 * the interface's micr_data) through the normal transaction path. The store's guards hold; the
 * reference is the core's, bound to the amount and the check (tender-refs.ts); the payment is
 * on disk with its cashier before it leaves, so a lost answer is looked up, and sent again with
 * the same transaction_api_id within the re-send window, until it is known (lost-payments.ts).
 * ACH is never approved at once: accepted (pending) is said as such.
 */
import type { GuardSettings } from '../../../shared/amount-guards';
import type { HandlerArg, SaleOutcome } from '../../../shared/ipc/contract';
import { formatMoney } from '../../../shared/payments/money';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { V2Transaction, V2TransactionCreate } from '../../client/v2-types';
import type { UserDirectory } from '../auth/users';
import type { TenderRefs } from '../cart/tender-refs';
import { refuseAmount } from '../sales/amount-refusal';
import { clerkNumberOf, type ClerkRecords } from '../sales/clerk-records';
import { failureOf, type LostPayments } from '../sales/lost-payments';
import { deviceCall } from './device-call';
import { DEVICE_ERRORS } from './device-errors';
import { madeBy, outcomeOf } from './device-outcome';
import { locQuery } from './device-rows';

export interface CheckPayDeps {
  client: GatewayClient;
  users: UserDirectory;
  locationId: string | undefined;
  guards: () => GuardSettings;
  clerks: ClerkRecords;
  refs: TenderRefs;
  lost: LostPayments;
}

export async function payByCheck(deps: CheckPayDeps, a: HandlerArg<'devices:check-pay'>): Promise<Result<SaleOutcome>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  const total = a.subtotalCents + a.taxCents;
  const refused = refuseAmount(deps.guards(), { subtotalCents: a.subtotalCents, tipCents: 0, totalCents: total }, a);
  if (refused) return refused;
  const tender = { amountCents: total, tipCents: 0, method: 'ach', action: 'debit', instrument: `check:${a.check.routing}:${a.check.account.slice(-4)}` } as const;
  const made = deps.refs.refFor(s.value, { scope: 'sale', attempt: a.clientRef, ...tender });
  const answerOf = (t: V2Transaction): Result<SaleOutcome> => {
    const o = madeBy(deps.clerks, outcomeOf(t), s.value);
    return ok(o.transaction.state === 'pending' ? { ...o, message: DEVICE_ERRORS.checkPending } : o);
  };
  if (!made.ok) {
    // This screen's own retry of a check the core found after its answer was lost: that answer, once (lost-payments.ts).
    const again = made.error.code === 'already_answered' ? await deps.lost.answerForRetry(s.value, { scope: 'sale', attempt: a.clientRef, ...tender }) : null;
    return again ? answerOf(again.transaction) : made;
  }
  const ref = made.value;
  const request: V2TransactionCreate = {
    action: 'debit',
    payment_method: 'ach',
    ...locQuery(deps.locationId),
    transaction_amount: formatMoney(total),
    ...(a.taxCents > 0 ? { tax: formatMoney(a.taxCents) } : {}),
    // The engine reads routing, account and check number from the MICR line itself
    // (the interface's micr_data), so the account number is never sent twice. A check
    // whose line the scanner could not read goes as the numbers the cashier keyed from it.
    account_type: 'checking',
    account_holder_name: a.holderName,
    ach_sec_code: 'POP',
    ...(a.check.micr !== null
      ? { micr_data: a.check.micr }
      : { routing: a.check.routing, account_number: a.check.account, ...(a.check.checkNumber !== null ? { check_number: a.check.checkNumber } : {}) }),
    transaction_api_id: ref,
    clerk_number: clerkNumberOf(s.value.user.id),
  };
  return deviceCall(async () => {
    // On disk with its cashier before it leaves: a lost answer is resumed after a restart too (lost-payments.ts).
    deps.lost.sending(ref, { way: 'check', session: s.value, amountCents: total });
    let t: V2Transaction;
    try {
      t = (await deps.client.request<{ transaction: V2Transaction }>('POST', '/transactions', { transaction: request })).transaction;
    } catch (e) {
      if (failureOf(e) !== 'lost') {
        deps.lost.answered(ref); // refused, or never left: nothing is unknown
        throw e;
      }
      // Lost: looked up (and sent again, same transaction_api_id, within the re-send window) until known.
      // The MICR line is held in memory only, as the card data of a keyed sale.
      const found = await deps.lost.lostThenLookup(ref, s.value, request);
      if (!found) return fail('outcome_unknown', DEVICE_ERRORS.checkOutcomeUnknown);
      return found.kind === 'refused' ? found.result : answerOf(found.transaction);
    }
    return deps.lost.counted(ref, t, s.value, answerOf);
  });
}

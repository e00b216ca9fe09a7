/**
 * The store's amount guards (shared/amount-guards.ts) as the core's answer. Every handler
 * that takes money — the keyed sale, the terminal, a check, a saved card, and the cart's
 * open amount and card tenders — asks here before anything reaches the gateway or a
 * device, whatever the screen did: above the hard cap the answer is a refusal, above the
 * threshold (or with a large tip) a question the screen answers by sending the confirmed
 * total (or tip) back.
 */
import { amountGuard, type GuardAmounts, type GuardConfirmations, type GuardSettings } from '../../../shared/amount-guards';
import { fail, type Result } from '../../../shared/result';

/** The guard's failure as a Result (code above_hard_cap, confirm_amount or confirm_tip, with its field), or null to go on. */
export function refuseAmount(settings: GuardSettings, amounts: GuardAmounts, confirmations: GuardConfirmations): Result<never> | null {
  const guard = amountGuard(settings, amounts, confirmations);
  return guard ? fail(guard.code, guard.message, { [guard.field]: [guard.message] }) : null;
}

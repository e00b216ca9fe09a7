/**
 * The large-amount and large-tip questions on every way money is taken besides the keyed
 * card (whose sale store asks its own, with the same dialog): the terminal, a check, a saved
 * card, and the cart's open amount and card tenders. `sendConfirmed` asks what this window's
 * store settings say needs asking, sends the cashier's confirmations with the payment, and —
 * should the core still ask (its settings are newer than the window's) — opens the question
 * again rather than leaving the cashier with an error no button answers.
 * A user's work: a reset (sign-out, Switch user, idle lock) drops an open question.
 */
import { aboveHardCap, hardCapSentence, needsLargeConfirm, needsTipConfirm, type GuardAmounts, type GuardConfirmations } from '../../../shared/amount-guards';
import { fail, type Result } from '../../../shared/result';
import { useSaleStore, type SaleQuestion } from './sale-store';
import { createUserStore } from '../auth/user-store';

/** The code `sendConfirmed` answers with when the cashier said no: nothing was sent, and there is nothing to show. */
export const DECLINED_BY_CASHIER = 'declined_by_cashier';

/** What the confirmed amount is for: charged now, or added to the cart as an open amount. */
export type AmountPurpose = 'charge' | 'add';
export type AmountQuestion = SaleQuestion & { purpose: AmountPurpose };

export const useAmountQuestion = createUserStore<{ question: AmountQuestion | null }>(() => ({ question: null }));

let answerWith: ((yes: boolean) => void) | null = null;

/** Opens the question; resolves with the cashier's answer. */
function ask(question: AmountQuestion): Promise<boolean> {
  answerWith?.(false);
  return new Promise((resolve) => {
    answerWith = resolve;
    useAmountQuestion.setState({ question });
  });
}

/** The dialog's Yes or Cancel. */
export function answerAmountQuestion(yes: boolean): void {
  const resolve = answerWith;
  answerWith = null;
  useAmountQuestion.setState({ question: null });
  resolve?.(yes);
}

/**
 * Sends a payment of `a` with the cashier's confirmations (`send` gets only the keys the
 * cashier confirmed). Answers the core's Result; above the hard cap a refusal without sending;
 * `DECLINED_BY_CASHIER` when the cashier said no. `already`: what the cashier confirmed on the
 * way's own question (the saved card's, which shows the amount): not asked twice.
 */
export async function sendConfirmed<T>(a: GuardAmounts, send: (c: GuardConfirmations) => Promise<Result<T>>, purpose: AmountPurpose = 'charge', already: GuardConfirmations = {}): Promise<Result<T>> {
  const c: GuardConfirmations = { ...already };
  const confirm = async (kind: SaleQuestion['kind']): Promise<boolean> => {
    const yes = await ask(kind === 'amount' ? { kind, totalCents: a.totalCents, purpose } : { kind, tipCents: a.tipCents, subtotalCents: a.subtotalCents, purpose });
    if (yes && kind === 'amount') c.confirmedCents = a.totalCents;
    if (yes && kind === 'tip') c.confirmedTipCents = a.tipCents;
    return yes;
  };
  const declined = fail(DECLINED_BY_CASHIER, '');
  const config = useSaleStore.getState().config;
  if (config) {
    if (aboveHardCap(config, a.totalCents)) {
      const msg = hardCapSentence(config.hardCapCents);
      return fail('above_hard_cap', msg, { amount: [msg] });
    }
    if (a.tipCents > 0 && needsTipConfirm(config, a.subtotalCents, a.tipCents) && !(await confirm('tip'))) return declined;
    if (needsLargeConfirm(config, a.totalCents) && c.confirmedCents !== a.totalCents && !(await confirm('amount'))) return declined;
  }
  for (;;) {
    const r = await send({ ...c });
    if (r.ok) return r;
    const kind = r.error.code === 'confirm_amount' ? 'amount' : r.error.code === 'confirm_tip' ? 'tip' : null;
    // Asked already and still refused (the amounts differ): the core's sentence is the answer.
    if (!kind || (kind === 'amount' ? c.confirmedCents !== undefined : c.confirmedTipCents !== undefined)) return r;
    void useSaleStore.getState().loadConfig(); // this window missed a settings change: catch up while the cashier reads
    if (!(await confirm(kind))) return declined;
  }
}

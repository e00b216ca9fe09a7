/**
 * The large-amount and large-tip question, shown the same on every way money is taken: the
 * amount large, Cancel focused (Enter never charges by accident), Esc cancels. The keyed sale
 * asks through its sale store; the terminal, a check, a saved card and the cart through
 * amount-question-store (`AmountQuestionDialog`, mounted once by the app).
 */
import { useCallback } from 'react';
import type { SaleConfig } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';
import { answerAmountQuestion, useAmountQuestion, type AmountPurpose } from './amount-question-store';
import { useSaleStore, type SaleQuestion } from './sale-store';
import { ConfirmDialog } from '../ui/confirm-dialog';

export function LargeAmountDialog({ question: q, config, onAnswer }: { question: SaleQuestion & { purpose?: AmountPurpose }; config: SaleConfig | null; onAnswer(yes: boolean): void }) {
  const cancel = useCallback(() => onAnswer(false), [onAnswer]);
  const adding = q.purpose === 'add';
  return (
    <ConfirmDialog
      title={q.kind === 'tip' ? 'Add this large tip?' : adding ? 'Add this large amount to the cart?' : 'Charge this large amount?'}
      confirmLabel={q.kind === 'tip' ? `Yes, tip ${money(q.tipCents)}` : `Yes, ${adding ? 'add' : 'charge'} ${money(q.totalCents)}`}
      onCancel={cancel}
      onConfirm={() => onAnswer(true)}
    >
      <p className="confirm-amount" data-testid="confirm-amount">
        {money(q.kind === 'amount' ? q.totalCents : q.tipCents)}
      </p>
      <p>
        {q.kind === 'amount'
          ? `Check the amount with the customer: it is above ${money(config?.confirmAboveCents ?? 0)}.`
          : `The tip is more than ${config?.tipConfirmPercent ?? 0}% of the ${money(q.subtotalCents)} amount. Check it with the customer.`}
      </p>
    </ConfirmDialog>
  );
}

/** The question `sendConfirmed` opens, wherever the payment was started. */
export function AmountQuestionDialog() {
  const question = useAmountQuestion((s) => s.question);
  const config = useSaleStore((s) => s.config);
  return question ? <LargeAmountDialog question={question} config={config} onAnswer={answerAmountQuestion} /> : null;
}

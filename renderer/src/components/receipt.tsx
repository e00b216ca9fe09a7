import type { TransactionView } from '../../../shared/ipc/contract';
import { money } from '../lib/money-format';
import { dateAndTime } from '../lib/time-format';
import { Fact } from './fact';

const STATE_TEXT: Record<TransactionView['state'], string> = {
  approved: 'APPROVED',
  declined: 'DECLINED',
  voided: 'VOIDED',
  refunded: 'REFUNDED',
  partially_refunded: 'PARTLY REFUNDED',
  pending: 'PENDING',
  other: 'SEE GATEWAY',
};

/**
 * The customer's receipt. On screen it is a paper slip; in print (@media print) it is
 * the only thing on the page, sized for an 80 mm roll or a letter page alike.
 */
const ENTRY_LABEL = { keyed: 'Keyed', swiped: 'Swiped', chip: 'Chip', contactless: 'Contactless', check: 'Check scan' } as const;

export function Receipt({ t, merchantName }: { t: TransactionView; merchantName: string }) {
  const subtotal = t.amountCents - t.taxCents - t.tipCents;
  return (
    <article className="receipt" aria-label="Receipt" data-testid="receipt">
      <header className="receipt-head">
        <strong className="receipt-merchant">{merchantName}</strong>
        <span>{dateAndTime(t.createdTs)}</span>
      </header>
      <p className="receipt-type">{t.kind === 'refund' ? 'REFUND' : 'SALE'}</p>
      <dl className="receipt-lines">
        <div>
          <dt>{t.entryMode === 'check' ? 'Account' : 'Card'}</dt>
          <dd>
            {t.cardBrand} •••• {t.lastFour}
          </dd>
        </div>
        <Fact label="Entry">{ENTRY_LABEL[t.entryMode ?? 'keyed']}</Fact>
        {(t.taxCents > 0 || t.tipCents > 0) && (
          <Fact label="Subtotal">{money(subtotal)}</Fact>
        )}
        {t.taxCents > 0 && (
          <Fact label="Tax">{money(t.taxCents)}</Fact>
        )}
        {t.tipCents > 0 && (
          <Fact label="Tip">{money(t.tipCents)}</Fact>
        )}
        <div className="receipt-total">
          <dt>Total</dt>
          <dd>{money(t.amountCents)}</dd>
        </div>
        {t.refundedCents > 0 && (
          <Fact label="Refunded">-{money(t.refundedCents)}</Fact>
        )}
        <Fact label="Result">{STATE_TEXT[t.state]}</Fact>
        {t.authCode && (
          <Fact label="Auth code">{t.authCode}</Fact>
        )}
        <div>
          <dt>Reference</dt>
          <dd className="receipt-ref">{t.apiId ?? t.id}</dd>
        </div>
      </dl>
      <p className="receipt-foot">{t.state === 'declined' ? 'No charge was made.' : 'Thank you!'}</p>
    </article>
  );
}

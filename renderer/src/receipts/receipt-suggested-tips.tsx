/**
 * The suggested tips a receipt prints under an untipped card sale (issue 21): the same
 * suggestions the sale screen, the cart and the terminal offer — the store's percents on its
 * tip base, or smart tips' flat amounts — from the sale's own subtotal and tax. Shown only while
 * the store's settings are at hand (the sale configuration) and tips are on.
 */
import type { TransactionView } from '../../../shared/ipc/contract';
import { tipSuggestions } from '../../../shared/payments/tip-suggestions';
import { money } from '../ui/money-format';
import { useSaleStore } from '../sales/sale-store';

export function ReceiptSuggestedTips({ t }: { t: TransactionView }) {
  const config = useSaleStore((s) => s.config);
  const untippedSale = t.kind !== 'refund' && t.entryMode !== 'check' && t.state === 'approved' && !t.partial && t.tipCents === 0;
  if (!config?.tipEnabled || !untippedSale) return null;
  const offer = tipSuggestions(t.requestedCents - t.taxCents, t.taxCents, config.tipRules, config.tipPercents);
  return (
    <p className="receipt-small receipt-suggested-tips" data-testid="receipt-suggested-tips">
      Suggested tips: {offer.suggestions.map((s) => (s.kind === 'percent' ? `${s.percent}% ${money(s.cents)}` : money(s.cents))).join(' · ')}
    </p>
  );
}

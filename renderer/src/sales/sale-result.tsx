import { useCartStore } from '../cart/cart-store';
import { useEffect, useRef, useState } from 'react';
import type { Approval, SaleConfig, SaleOutcome } from '../../../shared/ipc/contract';
import { EmailReceipt } from '../receipts/email-receipt';
import { OfflineCustomer } from '../queue/offline-customer';
import { receiptHeaderOf, ReceiptSet } from '../receipts/receipt';
import { money } from '../ui/money-format';
import { printReceipt, type PrintNote } from '../receipts/print-receipt';
import { PrintNoteLine } from '../receipts/print-note';
import { isTypingTarget } from '../shell/shortcuts';
import { useAcknowledgeShown } from '../queue/acknowledge-shown';
import type { FirstCard } from './sale-store';
import type { Result } from '../../../shared/result';
import { VoidReturnApproval } from '../auth/manager-approval-dialog';
import { useApprovalRetry } from '../auth/use-approval-retry';

interface SaleResultProps {
  outcome: SaleOutcome;
  config: SaleConfig | null;
  /** Set when this sale collected the rest of a partial approval. */
  firstCard: FirstCard | null;
  onNewSale(): void;
  /** After the rest of a partial approval became the cart's balance: starts over without asking. */
  onHandedToCart(): void;
  onRetry(): void;
  onCollectRest(): void;
  /** Voids the partial approval (with a manager's PIN when the core asks for one); answers the core's refusal. */
  onVoidPartial(approval?: Approval): Promise<Result<null>>;
}

/** Approved, partly approved or declined, why in plain words, and the receipt. */
export function SaleResult({ outcome, config, firstCard, onNewSale, onHandedToCart, onRetry, onCollectRest, onVoidPartial }: SaleResultProps) {
  const t = outcome.transaction;
  const partial = outcome.approved && t.partial;
  const restCents = t.requestedCents - t.amountCents;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [printNote, setPrintNote] = useState<PrintNote | null>(null);
  // A partial approval that paid part of a cart already paid is a return: a manager's PIN first (issue 20, point 4).
  const voiding = useApprovalRetry(onVoidPartial, () => undefined);
  // Approved offline (a keyed or terminal sale): once this shows it, the queue may send it (issue 20, point 3).
  useAcknowledgeShown(outcome.approved && t.offline ? t.id : null);

  useEffect(() => {
    // The outcome is the first thing seen, even on a short screen where Charge sat low on a scrolled page.
    document.getElementById('main')?.scrollTo?.({ top: 0 });
    window.scrollTo?.({ top: 0 });
    headingRef.current?.focus({ preventScroll: true });
  }, []);

  useEffect(() => {
    // A second, hurried Enter right after Charge must not skip past the result unseen.
    const shownAt = performance.now();
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target)) return;
      if (performance.now() - shownAt < 400) return;
      // A partial approval is never left with one key press: the cashier picks collect or void.
      if (partial) return;
      if (e.key === 'n' || e.key === 'N' || (e.key === 'Enter' && !(e.target instanceof HTMLButtonElement))) {
        e.preventDefault();
        onNewSale();
      } else if (e.key === 'p' || e.key === 'P') {
        e.preventDefault();
        void printReceipt(t.id).then(setPrintNote);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onNewSale, t.id, partial]);

  const tone = partial ? 'partial' : outcome.approved ? 'approved' : 'declined';
  return (
    <div className="result-layout">
      <section className={`panel result-panel result-${tone}`} aria-labelledby="result-title" data-testid="sale-result">
        <div className="result-head">
          <div className="result-icon" aria-hidden="true">
            {partial ? '!' : outcome.approved ? '✓' : '✕'}
          </div>
          <h1 id="result-title" ref={headingRef} tabIndex={-1} data-testid="result-title">
            {/* A check's bank transfer is still on its way: accepted, not yet approved money. */}
            {partial ? 'Partly approved' : !outcome.approved ? 'Declined' : t.state === 'pending' ? 'Check accepted' : t.offline ? 'Approved offline' : 'Approved'}
          </h1>
          <p className="result-amount">{money(outcome.approved ? t.amountCents : t.requestedCents)}</p>
        </div>
        <p className="result-message" data-testid="result-message">
          {partial
            ? `Only ${money(t.amountCents)} of ${money(t.requestedCents)} was approved. ${money(restCents)} remains to collect.`
            : outcome.approved && outcome.message === 'Approved.'
              ? 'The card was charged. Offer the customer a receipt.'
              : outcome.message}
        </p>
        {firstCard && outcome.approved && (
          <p className="notice notice-info" data-testid="result-linked">
            Paid with two cards: {money(firstCard.transaction.amountCents)} on {firstCard.transaction.cardBrand} •••• {firstCard.transaction.lastFour} and{' '}
            {money(t.amountCents)} on {t.cardBrand} •••• {t.lastFour}.
          </p>
        )}
        <p className="muted">
          {t.cardBrand} •••• {t.lastFour}
          {t.authCode ? ` · Auth code ${t.authCode}` : ''}
        </p>
        <div className="result-actions">
          {partial ? (
            <>
              <button type="button" className="btn btn-primary btn-xl" onClick={onCollectRest}>
                Collect {money(restCents)} with another card
              </button>
              {/* cart hook-in (issue 15): the rest as a cart balance, payable in cash (or cards, or a mix) */}
              <button type="button" className="btn btn-secondary btn-lg" onClick={() => void useCartStore.getState().adoptPartial(t.id).then((ok) => ok && onHandedToCart())}>
                Collect {money(restCents)} in cash
              </button>
              <button type="button" className="btn btn-danger btn-lg" onClick={() => void voiding.run()} disabled={voiding.busy}>
                {voiding.busy && !voiding.asking ? 'Voiding…' : `Void the ${money(t.amountCents)} and start over`}
              </button>
            </>
          ) : outcome.approved ? (
            <>
              <button type="button" className="btn btn-primary btn-xl" onClick={onNewSale} aria-keyshortcuts="N">
                New sale <kbd aria-hidden="true">N</kbd>
              </button>
              <button type="button" className="btn btn-secondary btn-lg" onClick={() => void printReceipt(t.id).then(setPrintNote)} aria-keyshortcuts="P">
                Print receipt <kbd aria-hidden="true">P</kbd>
              </button>
            </>
          ) : (
            <>
              <button type="button" className="btn btn-primary btn-xl" onClick={onRetry}>
                Try another card
              </button>
              <button type="button" className="btn btn-secondary btn-lg" onClick={onNewSale} aria-keyshortcuts="N">
                Cancel this sale <kbd aria-hidden="true">N</kbd>
              </button>
            </>
          )}
        </div>
        <PrintNoteLine note={printNote} />
        {!voiding.asking && voiding.error && (
          <p className="notice notice-error" role="alert">
            {voiding.error}
          </p>
        )}
        <VoidReturnApproval amount={money(t.amountCents)} retry={voiding} />
        {/* An offline sale has no gateway record to e-mail from yet (issue 13). */}
        {outcome.approved && !partial && !t.offline && <EmailReceipt transactionId={t.id} />}
        {outcome.approved && t.offline && t.apiId && <OfflineCustomer clientRefs={[t.apiId]} />}
      </section>
      <section className="receipt-column" aria-label="Receipt preview">
        <ReceiptSet t={t} header={receiptHeaderOf(config)} first={firstCard && outcome.approved ? firstCard.transaction : null} />
      </section>
    </div>
  );
}

import { useEffect, useRef, useState } from 'react';
import type { SaleOutcome } from '../../../shared/ipc/contract';
import { EmailReceipt } from '../components/email-receipt';
import { Receipt } from '../components/receipt';
import { money } from '../lib/money-format';
import { printReceipt } from '../lib/print-receipt';
import { isTypingTarget } from '../lib/shortcuts';

interface SaleResultProps {
  outcome: SaleOutcome;
  merchantName: string;
  onNewSale(): void;
  onRetry(): void;
}

/** Approved or declined, why in plain words, and the receipt. */
export function SaleResult({ outcome, merchantName, onNewSale, onRetry }: SaleResultProps) {
  const t = outcome.transaction;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [printError, setPrintError] = useState<string | null>(null);

  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
  }, []);

  useEffect(() => {
    // A second, hurried Enter right after Charge must not skip past the result unseen.
    const shownAt = performance.now();
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target)) return;
      if (performance.now() - shownAt < 400) return;
      if (e.key === 'n' || e.key === 'N' || (e.key === 'Enter' && !(e.target instanceof HTMLButtonElement))) {
        e.preventDefault();
        onNewSale();
      } else if (e.key === 'p' || e.key === 'P') {
        e.preventDefault();
        void printReceipt(t.id).then(setPrintError);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onNewSale, t.id]);

  return (
    <div className="result-layout">
      <section className={`panel result-panel result-${outcome.approved ? 'approved' : 'declined'}`} aria-labelledby="result-title" data-testid="sale-result">
        <div className="result-icon" aria-hidden="true">
          {outcome.approved ? '✓' : '✕'}
        </div>
        <h1 id="result-title" ref={headingRef} tabIndex={-1} data-testid="result-title">
          {outcome.approved ? 'Approved' : 'Declined'}
        </h1>
        <p className="result-amount">{money(t.amountCents)}</p>
        <p className="result-message" data-testid="result-message">
          {outcome.approved && outcome.message === 'Approved.' ? 'The card was charged. Offer the customer a receipt.' : outcome.message}
        </p>
        <p className="muted">
          {t.cardBrand} •••• {t.lastFour}
          {t.authCode ? ` · Auth code ${t.authCode}` : ''}
        </p>
        <div className="result-actions">
          {outcome.approved ? (
            <>
              <button type="button" className="btn btn-primary btn-xl" onClick={onNewSale} aria-keyshortcuts="N">
                New sale <kbd aria-hidden="true">N</kbd>
              </button>
              <button type="button" className="btn btn-secondary btn-lg" onClick={() => void printReceipt(t.id).then(setPrintError)} aria-keyshortcuts="P">
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
        {printError && (
          <p className="notice notice-error" role="alert">
            {printError}
          </p>
        )}
        {outcome.approved && <EmailReceipt transactionId={t.id} />}
      </section>
      <section className="receipt-column" aria-label="Receipt preview">
        <Receipt t={t} merchantName={merchantName} />
      </section>
    </div>
  );
}

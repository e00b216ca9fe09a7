import { CartLineReturn } from './cart-line-return';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useApprovalRetry } from '../lib/use-approval-retry';
import { VoidReturnApproval } from './manager-approval-dialog';
import { shortRefOf } from '../../../shared/short-ref';
import { isTypingTarget } from '../lib/shortcuts';
import type { TransactionView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { formatMoney } from '../../../shared/payments/money';
import { money, parseTypedAmount } from '../lib/money-format';
import { printReceipt } from '../lib/print-receipt';
import { dateAndTime } from '../lib/time-format';
import { ConfirmDialog } from './confirm-dialog';
import { useSaleStore } from '../stores/sale-store';
import { EmailReceipt } from './email-receipt';
import { receiptHeaderOf, ReceiptSet } from './receipt';
import { STATE_LABELS } from './transaction-list';
import { Fact } from './fact';
import { TransactionLinks } from './transaction-links';
import { useTransactionsStore } from '../stores/transactions-store';
import { REFUND_TOO_MUCH, refundLimitSentence } from '../../../shared/refund-limit';

export const MANAGER_ONLY = 'Only a manager can refund or void. Press Switch user (F8) and sign in as a manager.';
/** A cashier may void a partial approval (the sale path allows it); one that paid part of a sale already paid takes a manager's PIN there. */
export const PARTIAL_VOID_NOTE = 'Only a manager can refund. A partly approved sale can be voided here; if it paid part of a sale that is already paid, a manager enters their PIN.';

type Pending = { kind: 'refund'; cents: number } | { kind: 'void' } | null;

interface DetailProps {
  t: TransactionView;
  isManager: boolean;
  onChanged(view: TransactionView): void;
}

/** One transaction: its amounts, what is left to refund, and the manager's actions. */
export function TransactionDetail({ t, isManager, onChanged }: DetailProps) {
  const [refundText, setRefundText] = useState('');
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [printError, setPrintError] = useState<string | null>(null);
  const config = useSaleStore((s) => s.config);

  useEffect(() => {
    setRefundText(t.refundableCents > 0 ? formatMoney(t.refundableCents) : '');
    setFormError(null);
  }, [t.id, t.refundableCents]);
  useEffect(() => setDone(null), [t.id]);
  const panelRef = useRef<HTMLElement>(null);
  // Where the list and the detail stack (portrait), the detail comes into view where the finger picked the row.
  useEffect(() => {
    panelRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [t.id]);

  const canRefund = t.kind === 'sale' && t.refundableCents > 0;
  const canVoid = t.voidable;
  // A cashier voids a partial approval through the sale path; a manager's PIN when the core says it is a cart return (issue 20, point 4).
  const cashierVoid = !isManager && t.partial && canVoid;
  const partialVoid = useApprovalRetry(
    (approval) => ringup.saleVoidPartial({ id: t.id, ...(approval ? { approval } : {}) }),
    (view) => {
      setPending(null);
      onChanged(view);
      setDone(`The partial approval of ${money(view.amountCents)} was voided; the customer is not charged.`);
    },
  );
  const cancelPartialVoid = partialVoid.cancel;
  const closePartialVoid = useCallback(() => {
    cancelPartialVoid();
    setPending(null);
  }, [cancelPartialVoid]);
  const askRefundRef = useRef<() => void>(() => undefined);

  // R: refund (the amount in the field), for a manager, outside text fields and dialogs.
  useEffect(() => {
    if (!canRefund || !isManager) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target)) return;
      if (document.querySelector('[role="dialog"],[role="alertdialog"]')) return;
      if (e.key === 'r' || e.key === 'R') {
        e.preventDefault();
        askRefundRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [canRefund, isManager]);

  const askRefund = () => {
    const cents = parseTypedAmount(refundText);
    if (!cents) return setFormError('Enter the amount to refund, like 5.00.');
    if (cents > t.refundableCents) return setFormError(`${REFUND_TOO_MUCH} ${refundLimitSentence(t.refundableCents)}`);
    setFormError(null);
    setDialogError(null);
    setPending({ kind: 'refund', cents });
  };

  askRefundRef.current = askRefund;

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    setDialogError(null);
    if (pending.kind === 'refund') {
      const r = await ringup.transactionsRefund({ id: t.id, amountCents: pending.cents });
      setBusy(false);
      if (!r.ok) return setDialogError(r.error.message);
      setPending(null);
      onChanged(r.value.original);
      setDone(r.value.approved ? `Refunded ${money(pending.cents)} to ${t.cardBrand} •••• ${t.lastFour}.` : r.value.message);
    } else if (cashierVoid) {
      setBusy(false);
      await partialVoid.run();
    } else {
      const r = await ringup.transactionsVoid({ id: t.id });
      setBusy(false);
      if (!r.ok) return setDialogError(r.error.message);
      setPending(null);
      onChanged(r.value);
      setDone('The sale was voided; the customer will not be charged.');
    }
  };

  return (
    <section className="panel detail-panel" aria-labelledby="detail-title" data-testid="tx-detail" ref={panelRef}>
      <h2 id="detail-title" className="section-title">
        {t.kind === 'refund' ? 'Refund' : 'Sale'} · {t.cardBrand} •••• {t.lastFour}
      </h2>
      <p className="detail-amount">
        {money(t.amountCents)}
        {t.partial && <span className="detail-asked"> approved of {money(t.requestedCents)} asked</span>}
      </p>
      <p>
        <span className={`badge badge-state-${t.state}`}>{STATE_LABELS[t.state]}</span> <span className="muted">{dateAndTime(t.createdTs)}</span>
      </p>
      {t.message !== 'Approved.' && <p className="detail-message">{t.message}</p>}

      {/* cart hook-in (issue 15): a sale that paid part of a cart returns chosen lines */}
      {t.kind === 'sale' && <CartLineReturn transactionId={t.id} isManager={isManager} onChanged={() => void ringup.transactionsView({ id: t.id }).then((r) => r.ok && onChanged(r.value))} />}
      {done && (
        <p className="notice notice-ok" role="status" data-testid="detail-done">
          {done}
        </p>
      )}

      {(canRefund || canVoid) && (
        <div className="manager-actions">
          {!isManager && (
            <p className="notice notice-info" id="manager-only">
              {cashierVoid ? PARTIAL_VOID_NOTE : MANAGER_ONLY}
            </p>
          )}
          {canRefund && (
            <div className="field">
              <label htmlFor="refund-amount">Refund amount ($)</label>
              <div className="input-row">
                <input
                  id="refund-amount"
                  className="input"
                  inputMode="decimal"
                  value={refundText}
                  disabled={!isManager}
                  aria-invalid={formError ? true : undefined}
                  aria-describedby={formError ? 'refund-error' : 'refund-hint'}
                  onChange={(e) => setRefundText(e.target.value)}
                />
                <button type="button" className="btn btn-secondary" disabled={!isManager} onClick={() => setRefundText(formatMoney(Math.floor(t.refundableCents / 2)))}>
                  Half
                </button>
                <button type="button" className="btn btn-secondary" disabled={!isManager} onClick={() => setRefundText(formatMoney(t.refundableCents))}>
                  All
                </button>
              </div>
              <p id="refund-hint" className="muted" data-testid="refund-limit">
                {refundLimitSentence(t.refundableCents)}
              </p>
              {formError && (
                <p id="refund-error" className="field-error">
                  {formError}
                </p>
              )}
            </div>
          )}
          {t.settled && canRefund && <p className="muted">This sale has settled, so it can be refunded but no longer voided.</p>}
          <div className="form-actions">
            {canRefund && (
              <button type="button" className="btn btn-primary btn-lg" disabled={!isManager} aria-describedby={!isManager ? 'manager-only' : undefined} onClick={askRefund} aria-keyshortcuts="R">
                Refund… <kbd aria-hidden="true">R</kbd>
              </button>
            )}
            {canVoid && (
              <button
                type="button"
                className="btn btn-danger btn-lg"
                disabled={!isManager && !cashierVoid}
                aria-describedby={!isManager ? 'manager-only' : undefined}
                onClick={() => {
                  setDialogError(null);
                  cancelPartialVoid();
                  setPending({ kind: 'void' });
                }}
              >
                Void sale…
              </button>
            )}
          </div>
        </div>
      )}

      <dl className="facts facts-compact">
        {t.tipCents > 0 && (
          <Fact label="Tip">{money(t.tipCents)}</Fact>
        )}
        {t.taxCents > 0 && (
          <Fact label="Tax">{money(t.taxCents)}</Fact>
        )}
        {t.kind === 'sale' && (
          <>
            <div>
              <dt>Refunded</dt>
              <dd data-testid="detail-refunded">{money(t.refundedCents)}</dd>
            </div>
            <div>
              <dt>Left to refund</dt>
              <dd data-testid="detail-remaining">{money(t.refundableCents)}</dd>
            </div>
          </>
        )}
        {t.authCode && (
          <Fact label="Auth code">{t.authCode}</Fact>
        )}
        {t.clerkName && <Fact label={t.kind === 'refund' ? 'Refunded by' : 'Cashier'} testId="detail-clerk">{t.clerkName}</Fact>}
        {t.voidedBy && <Fact label="Voided by">{t.voidedBy}</Fact>}
        {t.collectsRestOf && <Fact label="Rest of sale">Ref {shortRefOf(t.collectsRestOf)}</Fact>}
        <Fact label="Ref" mono testId="detail-ref">
          {t.ref}
        </Fact>
        <Fact label="Transaction ID" mono>
          {t.apiId ?? t.id}
        </Fact>
        <Fact label="Settled">{t.settled ? 'Yes' : 'Not yet'}</Fact>
      </dl>

      {/* Issue 14: the original sale, refunds, batch, Level 3 data and receipt of this transaction. */}
      <TransactionLinks t={t} isManager={isManager} header={receiptHeaderOf(config)} onOpen={(v) => useTransactionsStore.getState().select(v)} />

      <div className="receipt-actions">
        <button type="button" className="btn btn-secondary btn-lg" onClick={() => void printReceipt(t.id).then(setPrintError)}>
          Print receipt
        </button>
        {printError && (
          <p className="notice notice-error" role="alert">
            {printError}
          </p>
        )}
        <EmailReceipt key={t.id} transactionId={t.id} initial={t.notificationEmail} />
        <div className="print-only">
          <ReceiptSet t={t} header={receiptHeaderOf(config)} />
        </div>
      </div>

      {pending && !partialVoid.asking && (
        <ConfirmDialog
          title={pending.kind === 'refund' ? `Refund ${money(pending.cents)}?` : `Void this ${money(t.amountCents)} sale?`}
          confirmLabel={pending.kind === 'refund' ? `Refund ${money(pending.cents)}` : 'Void sale'}
          danger={pending.kind === 'void'}
          busy={busy || partialVoid.busy}
          error={dialogError ?? partialVoid.error}
          onCancel={() => setPending(null)}
          onConfirm={() => void confirm()}
        >
          {pending.kind === 'refund' ? (
            <p>
              {money(pending.cents)} goes back to {t.cardBrand} •••• {t.lastFour}. {money(t.refundableCents - pending.cents)} will be left to refund.
            </p>
          ) : (
            <p>
              The sale is cancelled before it settles, so {t.cardBrand} •••• {t.lastFour} is never charged. This cannot be undone.
            </p>
          )}
        </ConfirmDialog>
      )}
      <VoidReturnApproval amount={money(t.amountCents)} retry={partialVoid} onCancel={closePartialVoid} />
    </section>
  );
}

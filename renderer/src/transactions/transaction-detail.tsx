import { CartLineReturn } from '../cart/cart-line-return';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useApprovalRetry } from '../auth/use-approval-retry';
import { ManagerApprovalDialog, VoidReturnApproval } from '../auth/manager-approval-dialog';
import { shortRefOf } from '../../../shared/short-ref';
import { isTypingTarget } from '../shell/shortcuts';
import type { TransactionView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { formatMoney } from '../../../shared/payments/money';
import { money, parseTypedAmount } from '../ui/money-format';
import { printReceipt, type PrintNote } from '../receipts/print-receipt';
import { PrintNoteLine } from '../receipts/print-note';
import { usePrinterStatusStore } from '../devices/printer-status-store';
import { dateAndTime } from '../ui/time-format';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { useSaleStore } from '../sales/sale-store';
import { EmailReceipt } from '../receipts/email-receipt';
import { receiptHeaderOf, ReceiptSet } from '../receipts/receipt';
import { STATE_LABELS } from './transaction-list';
import { Fact } from '../ui/fact';
import { TransactionLinks } from './transaction-links';
import { TipAdjust, tipAdjustable } from './tip-adjust';
import { useTransactionsStore } from './transactions-store';
import { REFUND_TOO_MUCH, refundLimitSentence } from '../../../shared/refund-limit';

/** Issue 21, point 12: a cashier asks, a manager approves at the cashier's counter with their PIN (checked in the core). */
export const MANAGER_APPROVES = 'A manager approves refunds and voids: after you confirm, they enter their PIN here.';

/** What the manager approval dialog asks for a cashier's refund or void (the core answered `approval_needed`). */
export const APPROVE_REFUND_SENTENCE = (amount: string, card: string) => `The cashier asks to refund ${amount} to ${card}. A manager approves it with their PIN; the refund is then recorded as theirs.`;
export const APPROVE_VOID_SENTENCE = (amount: string, card: string) => `The cashier asks to void this ${amount} sale on ${card}. A manager approves it with their PIN; the void is then recorded as theirs.`;

type Pending = { kind: 'refund'; cents: number } | { kind: 'void' } | null;

interface DetailProps {
  t: TransactionView;
  isManager: boolean;
  onChanged(view: TransactionView): void;
}

/** One transaction: its amounts, what is left to refund, and the refund and void (a cashier's with a manager's PIN). */
export function TransactionDetail({ t, isManager, onChanged }: DetailProps) {
  const [refundText, setRefundText] = useState('');
  const [pending, setPending] = useState<Pending>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [printNote, setPrintNote] = useState<PrintNote | null>(null);
  // On a receipt printer the merchant's copy can be asked for too (it prints by itself when a signature line is due).
  const onPrinter = usePrinterStatusStore((s) => (s.status?.state ?? 'none') !== 'none');
  const config = useSaleStore((s) => s.config);

  useEffect(() => {
    setRefundText(t.refundableCents > 0 ? formatMoney(t.refundableCents) : '');
    setFormError(null);
  }, [t.id, t.refundableCents]);
  useEffect(() => setDone(null), [t.id]);
  useEffect(() => setPrintNote(null), [t.id]);
  const panelRef = useRef<HTMLElement>(null);
  // Where the list and the detail stack (portrait), the detail comes into view where the finger picked the row.
  useEffect(() => {
    panelRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [t.id]);

  const canRefund = t.kind === 'sale' && t.refundableCents > 0;
  const canVoid = t.voidable;
  const card = `${t.cardBrand} •••• ${t.lastFour}`;
  // A cashier voids a partial approval through the sale path (no manager, unless the core says it is a cart return, issue 20).
  const cashierPartialVoid = !isManager && t.partial && canVoid;
  const refundCents = pending?.kind === 'refund' ? pending.cents : 0;
  // Each step goes once as asked; the core answers `approval_needed` to a cashier, and the manager's PIN sends it again.
  const refund = useApprovalRetry(
    (approval) => ringup.transactionsRefund({ id: t.id, amountCents: refundCents, ...(approval ? { approval } : {}) }),
    (r) => {
      setPending(null);
      onChanged(r.original);
      setDone(r.approved ? `Refunded ${money(r.refund.amountCents)} to ${card}.` : r.message);
    },
  );
  const voidStep = useApprovalRetry(
    (approval) => {
      const a = approval ? { approval } : {};
      return cashierPartialVoid ? ringup.saleVoidPartial({ id: t.id, ...a }) : ringup.transactionsVoid({ id: t.id, ...a });
    },
    (view) => {
      setPending(null);
      onChanged(view);
      setDone(cashierPartialVoid ? `The partial approval of ${money(view.amountCents)} was voided; the customer is not charged.` : 'The sale was voided; the customer will not be charged.');
    },
  );
  const step = pending?.kind === 'refund' ? refund : voidStep;
  const { cancel: cancelRefund } = refund;
  const { cancel: cancelVoid } = voidStep;
  const closeApproval = useCallback(() => {
    cancelRefund();
    cancelVoid();
    setPending(null);
  }, [cancelRefund, cancelVoid]);
  const askRefundRef = useRef<() => void>(() => undefined);

  // R: refund (the amount in the field), outside text fields and dialogs.
  useEffect(() => {
    if (!canRefund) return;
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
  }, [canRefund]);

  const askRefund = () => {
    const cents = parseTypedAmount(refundText);
    if (!cents) return setFormError('Enter the amount to refund, like 5.00.');
    if (cents > t.refundableCents) return setFormError(`${REFUND_TOO_MUCH} ${refundLimitSentence(t.refundableCents)}`);
    setFormError(null);
    closeApproval();
    setPending({ kind: 'refund', cents });
  };

  askRefundRef.current = askRefund;

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
            <p className="notice notice-info" id="manager-approves">
              {MANAGER_APPROVES}
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
                  aria-invalid={formError ? true : undefined}
                  aria-describedby={formError ? 'refund-error' : 'refund-hint'}
                  onChange={(e) => setRefundText(e.target.value)}
                />
                <button type="button" className="btn btn-secondary" onClick={() => setRefundText(formatMoney(Math.floor(t.refundableCents / 2)))}>
                  Half
                </button>
                <button type="button" className="btn btn-secondary" onClick={() => setRefundText(formatMoney(t.refundableCents))}>
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
              <button type="button" className="btn btn-primary btn-lg" aria-describedby={!isManager ? 'manager-approves' : undefined} onClick={askRefund} aria-keyshortcuts="R">
                Refund… <kbd aria-hidden="true">R</kbd>
              </button>
            )}
            {canVoid && (
              <button
                type="button"
                className="btn btn-danger btn-lg"
                aria-describedby={!isManager ? 'manager-approves' : undefined}
                onClick={() => {
                  closeApproval();
                  setPending({ kind: 'void' });
                }}
              >
                Void sale…
              </button>
            )}
          </div>
        </div>
      )}

      {/* After the refund and void, which a layout test keeps in view at 1024×768; a refused tip scrolls itself into view. */}
      {tipAdjustable(t) && (
        <TipAdjust t={t} onAdjusted={onChanged} />
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
        {/* Reprint (issue 23): on the receipt printer when one is registered, the merchant's copy too when its signature line is due. */}
        <button type="button" className="btn btn-secondary btn-lg" onClick={() => void printReceipt(t.id).then(setPrintNote)} data-testid="reprint-receipt">
          Reprint receipt
        </button>
        {onPrinter && (
          <button type="button" className="btn btn-quiet btn-lg" onClick={() => void printReceipt(t.id, true).then(setPrintNote)} data-testid="reprint-both-copies">
            Both copies
          </button>
        )}
        <PrintNoteLine note={printNote} />
        <EmailReceipt key={t.id} transactionId={t.id} initial={t.notificationEmail} />
        <div className="print-only">
          <ReceiptSet t={t} header={receiptHeaderOf(config)} />
        </div>
      </div>

      {pending && !step.asking && (
        <ConfirmDialog
          title={pending.kind === 'refund' ? `Refund ${money(pending.cents)}?` : `Void this ${money(t.amountCents)} sale?`}
          confirmLabel={pending.kind === 'refund' ? `Refund ${money(pending.cents)}` : 'Void sale'}
          danger={pending.kind === 'void'}
          busy={step.busy}
          error={step.error}
          onCancel={closeApproval}
          onConfirm={() => void step.run()}
        >
          {pending.kind === 'refund' ? (
            <p>
              {money(pending.cents)} goes back to {card}. {money(t.refundableCents - pending.cents)} will be left to refund.
            </p>
          ) : (
            <p>The sale is cancelled before it settles, so {card} is never charged. This cannot be undone.</p>
          )}
        </ConfirmDialog>
      )}
      {pending?.kind === 'refund' && refund.asking && (
        <ManagerApprovalDialog
          sentence={APPROVE_REFUND_SENTENCE(money(pending.cents), card)}
          confirmLabel={`Approve and refund ${money(pending.cents)}`}
          busy={refund.busy}
          error={refund.error}
          onApprove={refund.approve}
          onCancel={closeApproval}
        />
      )}
      {/* A cashier's partial void that paid part of a paid cart is a return (issue 20); any other void of theirs is asked as a void. */}
      {pending?.kind === 'void' &&
        (cashierPartialVoid ? (
          <VoidReturnApproval amount={money(t.amountCents)} retry={voidStep} onCancel={closeApproval} />
        ) : (
          voidStep.asking && (
            <ManagerApprovalDialog
              sentence={APPROVE_VOID_SENTENCE(money(t.amountCents), card)}
              confirmLabel={`Approve and void the ${money(t.amountCents)}`}
              busy={voidStep.busy}
              error={voidStep.error}
              onApprove={voidStep.approve}
              onCancel={closeApproval}
            />
          )
        ))}
    </section>
  );
}

import { useCallback, useEffect, useRef, useState } from 'react';
import type { Discount } from '../../../shared/ipc/contract';
import { balancePart } from '../sales/balance-part';
import { formatPercentBp, money } from '../ui/money-format';
import { DISCOUNT_COPY } from '../../../shared/cart/discount-guard';
import { tenderLabel } from '../../../shared/cart/tender-label';
import { CartTaxAndTotal } from './cart-tax-total';
import { useCartStore, type ApprovalFor } from './cart-store';
import { CardForm, type CardFormHandle } from '../sales/card-form';
import { CartDiscount } from './cart-discount';
import { CashTender } from './cash-tender';
import { CartTerminalTender } from './cart-terminal-tender';
import { CartTip } from './cart-tip';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ManagerApprovalDialog } from '../auth/manager-approval-dialog';
import { OfflineTenderCustomer } from '../queue/offline-customer';
import { SavedMethodDialog } from '../vault/saved-method-charge';
import { TextField } from '../ui/text-field';
import { LineModifiers } from './line-modifiers';

const discountText = (d: Discount) => (d.kind === 'comp' ? DISCOUNT_COPY.compLabel : d.kind === 'amount' ? `−${money(d.cents)}` : `−${formatPercentBp(d.basisPoints)}`);

/** What the manager is asked to approve, and the button that does it (the core's sentence shows under it). */
function approvalWords(p: ApprovalFor): { sentence: string; confirmLabel: string } {
  switch (p.kind) {
    case 'cancel':
      return { sentence: 'A card payment of this sale was approved: cancelling it takes a manager. Card payments are voided (or refunded) and cash goes back.', confirmLabel: 'Approve and cancel the sale' };
    case 'quantity':
    case 'remove':
      return { sentence: 'This change makes a discount a larger share of the sale than a cashier may give.', confirmLabel: 'Approve the change' };
    case 'comp':
      return { sentence: `A comp gives ${p.lineId === undefined ? DISCOUNT_COPY.wholeSale : 'this line'} away free: a manager approves it with their PIN.`, confirmLabel: 'Approve the comp' };
    case 'tender':
      return { sentence: "This sale's discount is larger than a cashier may give: a manager approves it before it is paid.", confirmLabel: 'Approve discount' };
    default:
      return { sentence: 'This discount is larger than a cashier may give.', confirmLabel: 'Approve discount' };
  }
}

/**
 * The cart: lines (quantity, remove), discounts, tax and total from the core, then the
 * tenders until the balance is zero — cash (change shown large), the terminal, and a keyed
 * or saved card for the balance or a typed part of it (two cards can split a bill); Cancel
 * sale gives back what was taken, after a confirmation (and a manager's PIN when a card was
 * fully approved). A discount above the store's limit, or an edit that makes one larger,
 * waits for a manager's PIN.
 */
export function CartPanel() {
  const c = useCartStore();
  const cart = c.cart!;
  const cardRef = useRef<CardFormHandle>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [savedOpen, setSavedOpen] = useState(false);
  const [cardPartText, setCardPartText] = useState('');
  // A due cart (paid once, a card of it voided since, collected from Cart sales) keeps its lines as sold.
  const due = cart.status === 'due';
  const taken = due || cart.tenders.some((t) => t.status === 'approved' || t.status === 'pending');
  const t = cart.totals;
  const takenBy = (cash: boolean) => cart.tenders.filter((x) => (x.kind === 'cash') === cash && x.status === 'approved').reduce((a, x) => a + x.approvedCents, 0);
  // A card for a typed part of the balance (blank: all of it).
  const cardPart = balancePart(cardPartText, cart.balanceCents);
  const cardPartBad = cardPart.error !== null;
  const cardAmount = cardPart.cents;
  const cardAmountArg = cardPart.blank ? undefined : cardAmount;
  const tipCents = c.tipCents(); // the cart's tip rides on the card (cart-tip.tsx)
  useEffect(() => setCardPartText(''), [cart.balanceCents]);
  const closeApproval = useCallback(() => useCartStore.setState({ approvalFor: null, error: null }), []);
  const approve = useCallback((a: { managerId: string; pin: string }) => void useCartStore.getState().approve(a), []);
  // Charge on the ticket's foot brings the ways to pay into view, the cash handed over first (keyboard first: type it).
  const toPayment = useCallback(() => {
    document.getElementById('ticket-pay')?.scrollIntoView({ block: 'start' });
    document.getElementById('cash-tendered')?.focus({ preventScroll: true });
  }, []);

  return (
    <section className="panel order-panel ticket" aria-labelledby="cart-title" tabIndex={0}>
      <h2 id="cart-title" className="section-title">
        {due ? 'Collect the rest' : 'Cart'}
      </h2>
      {due && (
        <p className="notice notice-info" data-testid="cart-due-note">
          This sale was paid, then a card payment of it was voided. Collect the {money(cart.balanceCents)} due: cash, a card, a saved card or the terminal.
        </p>
      )}
      <ul className="cart-lines" aria-label="Cart lines">
        {cart.lines.map((l, i) => (
          <li key={l.id} className="cart-line" data-testid="cart-line">
            <span className="cart-line-name">
              {l.name}
              {l.discount && <span className="muted"> ({discountText(l.discount)})</span>}
              {l.taxCategory === 'exempt' && l.itemId !== null && <span className="muted"> · no tax</span>}
              <LineModifiers choice={l.choice} />
            </span>
            <span className="cart-qty" role="group" aria-label={`Quantity of ${l.name}`}>
              <button type="button" className="btn btn-secondary qty-btn" disabled={taken || c.busy || l.quantity <= 1} onClick={() => void c.setQuantity(l.id, l.quantity - 1)} aria-label={`One less ${l.name}`}>
                −
              </button>
              <span className="qty-value">{l.quantity}</span>
              <button type="button" className="btn btn-secondary qty-btn" disabled={taken || c.busy} onClick={() => void c.setQuantity(l.id, l.quantity + 1)} aria-label={`One more ${l.name}`}>
                +
              </button>
            </span>
            <span className="cart-line-amount">{money(t.lines[i]?.grossCents ?? 0)}</span>
            <button type="button" className="btn btn-quiet qty-btn" disabled={taken || c.busy} onClick={() => void c.removeLine(l.id)} aria-label={`Remove ${l.name}`}>
              ✕
            </button>
          </li>
        ))}
      </ul>

      {/* Under the lines, where the cashier looks as an item goes in (below the pinned foot it was out of sight at 1280×800). */}
      {cart.stockWarning && (
        <p className="notice notice-warn" role="status" data-testid="cart-stock-warning">
          {cart.stockWarning}
        </p>
      )}

      {!taken && <CartDiscount />}

      {/* The ticket's foot (total and Charge) stays pinned at the bottom of the panel while a long ticket scrolls above it. */}
      <div className="ticket-foot">
        <dl className="summary" data-testid="cart-summary">
          <div>
            <dt>Items</dt>
            <dd>{money(t.grossCents)}</dd>
          </div>
          {t.lineDiscountCents + t.cartDiscountCents > 0 && (
            <div>
              <dt>Discounts{cart.cartDiscount ? ` (sale ${discountText(cart.cartDiscount)})` : ''}</dt>
              <dd data-testid="cart-discounts">−{money(t.lineDiscountCents + t.cartDiscountCents)}</dd>
            </div>
          )}
          <CartTaxAndTotal totals={t} totalTestId="cart-total" />
          {cart.tenders
            .filter((x) => x.status === 'approved')
            .map((x) => (
              <div key={x.id}>
                <dt>
                  {x.kind === 'cash' ? `Cash (handed ${money(x.tenderedCents)})` : tenderLabel(x.kind)}
                  {x.tipCents > 0 && ` (+ ${money(x.tipCents)} tip)`}
                </dt>
                <dd>−{money(x.approvedCents)}</dd>
              </div>
            ))}
          {taken && (
            <div className="summary-total">
              <dt>Balance due</dt>
              <dd data-testid="cart-balance">{money(cart.balanceCents)}</dd>
            </div>
          )}
        </dl>
        {cart.balanceCents > 0 && (
          <button type="button" className="btn btn-primary btn-xl btn-block" onClick={toPayment}>
            Charge {money(cart.balanceCents)}
          </button>
        )}
      </div>

      {c.message && (
        <p className="notice notice-info" role="status" data-testid="cart-message">
          {c.message}
        </p>
      )}
      <OfflineTenderCustomer tenders={cart.tenders} />
      {c.error && !c.approvalFor && (
        <p className="notice notice-error" role="alert" data-testid="cart-error">
          {c.error}
        </p>
      )}

      {cart.balanceCents > 0 && (
        <div className="ticket-pay" id="ticket-pay" role="group" aria-label="Take the payment">
          <CashTender balanceCents={cart.balanceCents} disabled={c.busy} onPay={(cents) => void c.payCash(cents)} />
          <CartTip />
          <CartTerminalTender balanceCents={cart.balanceCents} />
          <div className="cash-tender" role="group" aria-labelledby="cart-card-title">
            <h3 id="cart-card-title" className="subsection-title">
              Card
            </h3>
            <TextField id="cart-card-amount" label="Amount on this card (blank: all of it)" inputMode="decimal" value={cardPartText} onChange={setCardPartText} error={cardPart.error} />
            <CardForm
              ref={cardRef}
              disabled={false}
              blockedReason={cardPart.error}
              charging={c.busy}
              chargeLabel={`Charge ${money(cardAmount + tipCents)} to the card`}
              serverErrors={c.fieldErrors}
              resetToken={c.cardResetToken}
              onCharge={(card) => void c.payCard(card, cardAmountArg)}
              labelledBy="cart-card-title"
            />
            <button type="button" className="btn btn-secondary btn-lg" disabled={c.busy || cardPartBad} onClick={() => setSavedOpen(true)} data-testid="cart-saved-open">
              Charge {money(cardAmount + tipCents)} to a saved card…
            </button>
          </div>
        </div>
      )}

      <div className="form-actions">
        {due ? (
          <button type="button" className="btn btn-secondary btn-lg" disabled={c.busy || cart.tenders.some((x) => x.status === 'pending')} onClick={() => void c.putBack()}>
            Put it back (collect later)
          </button>
        ) : taken ? (
          <button type="button" className="btn btn-danger btn-lg" disabled={c.busy} onClick={() => setConfirmCancel(true)}>
            Cancel sale
          </button>
        ) : (
          <button type="button" className="btn btn-secondary btn-lg" disabled={c.busy || cart.lines.length === 0} onClick={() => void c.clear()}>
            Clear cart
          </button>
        )}
      </div>

      {savedOpen && (
        <SavedMethodDialog
          amountCents={cardAmount}
          onCharge={async (methodId, already) => ((await c.paySaved(methodId, cardAmountArg, already)) ? null : (useCartStore.getState().error ?? ''))}
          onClose={() => setSavedOpen(false)}
        />
      )}
      {confirmCancel && (
        <ConfirmDialog
          title="Cancel this sale?"
          danger
          busy={c.busy}
          confirmLabel="Yes, cancel and give back"
          cancelLabel="Keep the sale"
          onCancel={() => setConfirmCancel(false)}
          onConfirm={() => {
            setConfirmCancel(false);
            void c.cancel();
          }}
        >
          <p>
            Card payments already taken ({money(takenBy(false))}) are voided (or refunded), and cash taken ({money(takenBy(true))}) goes back to the customer.
          </p>
        </ConfirmDialog>
      )}
      {c.approvalFor && (
        <ManagerApprovalDialog {...approvalWords(c.approvalFor)} busy={c.busy} error={c.error} onApprove={approve} onCancel={closeApproval} />
      )}
    </section>
  );
}

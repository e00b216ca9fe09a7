import { useRef, useState } from 'react';
import type { Discount } from '../../../shared/ipc/contract';
import { formatPercentBp, money, parseTypedAmount } from '../lib/money-format';
import { tenderLabel } from '../lib/tender-label';
import { CartTaxAndTotal } from './cart-tax-total';
import { useCartStore } from '../stores/cart-store';
import { useSessionStore } from '../stores/session-store';
import { CardForm, type CardFormHandle } from './card-form';
import { CashTender } from './cash-tender';
import { CartTerminalTender } from './cart-terminal-tender';
import { ConfirmDialog } from './confirm-dialog';
import { OfflineTenderCustomer } from './offline-customer';
import { SavedMethodDialog } from './saved-method-charge';

const discountText = (d: Discount) => (d.kind === 'amount' ? `−${money(d.cents)}` : `−${formatPercentBp(d.basisPoints)}`);

/** "10%" → percent discount; "2.50" or "$2.50" → amount; "" → none. */
function parseDiscount(text: string): Discount | null | 'bad' {
  const t = text.trim();
  if (t === '') return null;
  const pct = /^(\d{1,3}(?:\.\d{1,2})?)\s*%$/.exec(t);
  if (pct) {
    const bp = Math.round(Number(pct[1]) * 100);
    return bp > 0 && bp <= 10_000 ? { kind: 'percent', basisPoints: bp } : 'bad';
  }
  const cents = parseTypedAmount(t);
  return cents ? { kind: 'amount', cents } : 'bad';
}

/**
 * The cart: lines (quantity, remove), discounts, tax and total from the core, then the
 * tenders until the balance is zero — cash (change shown large) and a keyed card for the
 * balance; Cancel sale gives back what was taken, after a confirmation.
 */
export function CartPanel() {
  const c = useCartStore();
  const cart = c.cart!;
  const users = useSessionStore((s) => s.users);
  const cardRef = useRef<CardFormHandle>(null);
  const [discountText_, setDiscountText] = useState('');
  const [discountTarget, setDiscountTarget] = useState<'cart' | string>('cart');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [savedOpen, setSavedOpen] = useState(false);
  const [approver, setApprover] = useState('');
  const [pin, setPin] = useState('');
  const taken = cart.tenders.some((t) => t.status === 'approved' || t.status === 'pending');
  const t = cart.totals;
  const parsed = parseDiscount(discountText_);
  const managers = users.filter((u) => u.role === 'manager');

  return (
    <section className="panel order-panel" aria-labelledby="cart-title">
      <h2 id="cart-title" className="section-title">
        Cart
      </h2>
      <ul className="cart-lines" aria-label="Cart lines">
        {cart.lines.map((l, i) => (
          <li key={l.id} className="cart-line" data-testid="cart-line">
            <span className="cart-line-name">
              {l.name}
              {l.discount && <span className="muted"> ({discountText(l.discount)})</span>}
              {l.taxCategory === 'exempt' && l.itemId !== null && <span className="muted"> · no tax</span>}
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

      {!taken && (
        <form
          className="input-row discount-row"
          onSubmit={(e) => {
            e.preventDefault();
            if (parsed !== 'bad') void c.setDiscount(discountTarget, parsed);
          }}
        >
          <div className="field">
            <label htmlFor="discount-target">Discount on</label>
            <select id="discount-target" className="input" value={discountTarget} onChange={(e) => setDiscountTarget(e.target.value)}>
              <option value="cart">Whole sale</option>
              {cart.lines.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="discount-value">Discount (10% or 2.50)</label>
            <input id="discount-value" className="input" value={discountText_} onChange={(e) => setDiscountText(e.target.value)} aria-invalid={parsed === 'bad'} />
          </div>
          <button type="submit" className="btn btn-secondary btn-lg" disabled={c.busy || parsed === 'bad'}>
            {parsed === null ? 'Remove discount' : 'Apply'}
          </button>
        </form>
      )}

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
              <dt>{x.kind === 'cash' ? `Cash (handed ${money(x.tenderedCents)})` : tenderLabel(x.kind)}</dt>
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
        <>
          <CashTender balanceCents={cart.balanceCents} disabled={c.busy} onPay={(cents) => void c.payCash(cents)} />
          <CartTerminalTender balanceCents={cart.balanceCents} />
          <CardForm
            ref={cardRef}
            disabled={false}
            blockedReason={null}
            charging={c.busy}
            chargeLabel={`Charge ${money(cart.balanceCents)} to the card`}
            serverErrors={c.fieldErrors}
            resetToken={c.cardResetToken}
            onCharge={(card) => void c.payCard(card)}
          />
          <button type="button" className="btn btn-secondary btn-lg" disabled={c.busy} onClick={() => setSavedOpen(true)} data-testid="cart-saved-open">
            Charge {money(cart.balanceCents)} to a saved card…
          </button>
        </>
      )}

      <div className="form-actions">
        {taken ? (
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
          amountCents={cart.balanceCents}
          onCharge={async (methodId) => ((await c.paySaved(methodId)) ? null : (useCartStore.getState().error ?? 'The saved card was not charged.'))}
          onClose={() => setSavedOpen(false)}
        />
      )}
      {confirmCancel && (
        <ConfirmDialog
          title="Cancel this sale?"
          danger
          busy={c.busy}
          confirmLabel="Yes, cancel and give back"
          onCancel={() => setConfirmCancel(false)}
          onConfirm={() => {
            setConfirmCancel(false);
            void c.cancel();
          }}
        >
          <p>
            Card payments already taken are voided (or refunded), and cash taken ({money(cart.tenders.filter((x) => x.kind === 'cash' && x.status === 'approved').reduce((a, x) => a + x.approvedCents, 0))}) goes back to the customer.
          </p>
        </ConfirmDialog>
      )}
      {c.approvalFor && (
        <ConfirmDialog
          title="Manager approval"
          busy={c.busy}
          error={c.error}
          confirmLabel="Approve discount"
          onCancel={() => useCartStore.setState({ approvalFor: null, error: null })}
          onConfirm={() => void c.setDiscount(c.approvalFor!.target, c.approvalFor!.discount, { managerId: approver || managers[0]?.id || '', pin })}
        >
          <div className="field">
            <label htmlFor="approver">Manager</label>
            <select id="approver" className="input" value={approver || managers[0]?.id || ''} onChange={(e) => setApprover(e.target.value)}>
              {managers.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="approver-pin">Manager PIN</label>
            <input id="approver-pin" className="input input-secret" inputMode="numeric" autoComplete="off" value={pin} onChange={(e) => setPin(e.target.value.replace(/\D/g, '').slice(0, 8))} />
          </div>
        </ConfirmDialog>
      )}
    </section>
  );
}

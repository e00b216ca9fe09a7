import type { CartReceiptData, Tender, TransactionView } from '../../../shared/ipc/contract';
import { DISCOUNT_COPY } from '../../../shared/cart/discount-guard';
import { tenderLabel } from '../../../shared/cart/tender-label';
import { shortRefOf } from '../../../shared/short-ref';
import { money } from '../ui/money-format';
import { CartTaxAndTotal } from './cart-tax-total';
import { LineModifiers } from './line-modifiers';
import { Fact } from '../ui/fact';
import { AuthAndRef, BothCopies, CardFacts, ReceiptHead, receiptFoot, SignatureBlock, type ReceiptCopy, type ReceiptHeader } from '../receipts/receipt';
import { cartReceiptFacts } from '../../../shared/receipts/receipt-words';

/** A split payment's share of the cart's tax (tender-tax.ts): the shares on the receipt add up to its sales tax, as the gateway's records do. */
function TaxShare({ tender: x }: { tender: Tender }) {
  return (
    <Fact label="Tax in this payment" testId="receipt-tender-tax">
      {money(x.taxCents)}
    </Fact>
  );
}

/** One payment of the cart: cash handed over, or a card with its facts from the gateway's record (the single-sale receipt's parts). */
function TenderLines({ tender: x, card, split }: { tender: Tender; card: TransactionView | null | undefined; split: boolean }) {
  if (x.kind === 'cash') {
    return (
      <>
        <div>
          <dt>Cash tendered {money(x.tenderedCents)}</dt>
          <dd>{money(x.approvedCents)}</dd>
        </div>
        {split && <TaxShare tender={x} />}
      </>
    );
  }
  const partial = x.approvedCents < x.requestedCents;
  return (
    <>
      <div className="receipt-tender" data-testid="receipt-card">
        <dt>
          {tenderLabel(x.kind)} payment{partial ? ', approved (partial)' : ''}
        </dt>
        <dd>{money(x.approvedCents)}</dd>
      </div>
      {partial && <Fact label="Asked on this card">{money(x.requestedCents)}</Fact>}
      {x.tipCents > 0 && (
        <>
          <Fact label="Tip on this card" testId="receipt-cart-tip">
            {money(x.tipCents)}
          </Fact>
          {/* What the customer sees on their statement: the payment and its tip together. */}
          <Fact label="Charged to this card" testId="receipt-cart-charged">
            {money(x.approvedCents + x.tipCents)}
          </Fact>
        </>
      )}
      {split && x.status === 'approved' && <TaxShare tender={x} />}
      {card ? (
        <>
          <CardFacts t={card} />
          <AuthAndRef t={card} />
        </>
      ) : (
        x.transactionId && <Fact label="Ref">{shortRefOf(x.transactionId)}</Fact>
      )}
      {x.refundedCents > 0 && <Fact label="Refunded">-{money(x.refundedCents)}</Fact>}
    </>
  );
}

/**
 * A paid cart as a receipt: the store's lines, the date and the cashier; the items,
 * discounts and tax; each payment (a card with its brand and last four, entry, auth code and
 * Ref — the single-sale receipt's parts) and the change. The merchant's copy adds the
 * signature line when a card's verification calls for one (simplification: one line for the
 * sale, however many cards ask for it) and whether Level 3 went, which is the merchant's business.
 */
export function CartReceipt({ data, header, copy = 'customer' }: { data: CartReceiptData; header: ReceiptHeader; copy?: ReceiptCopy }) {
  const { cart } = data;
  const t = cart.totals;
  const { paidBy, signature, comped, split } = cartReceiptFacts(data);
  return (
    <article className="receipt cart-receipt" aria-label={copy === 'customer' ? 'Receipt' : 'Receipt, merchant copy'} data-testid={copy === 'customer' ? 'cart-receipt' : 'cart-receipt-merchant'}>
      {/* The time it was paid, as a receipt says (the cart may have been started long before). */}
      <ReceiptHead header={header} createdTs={Math.floor((cart.paidTs ?? cart.createdTs) / 1000)} cashier={data.cashier} />
      <p className="receipt-type">SALE</p>
      <table className="cart-receipt-lines">
        <caption className="sr-only">Items</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Qty</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody>
          {cart.lines.map((l, i) => [
            <tr key={l.id}>
              <td>
                {l.name}
                {(t.lines[i]?.lineDiscountCents ?? 0) > 0 && (
                  <div className="muted">
                    {l.discount?.kind === 'comp' ? DISCOUNT_COPY.compLabel : 'Discount'} −{money(t.lines[i]!.lineDiscountCents)}
                  </div>
                )}
                {l.refunded && <div className="muted">Returned</div>}
              </td>
              <td>
                {l.quantity} × {money(l.unitCents)}
              </td>
              <td>{money(t.lines[i]?.grossCents ?? 0)}</td>
            </tr>,
            // The modifiers under the line, the width of the roll (each with what it adds to one item).
            l.choice && l.choice.modifiers.length > 0 && (
              <tr key={`${l.id}-with`} className="receipt-modifiers">
                <td colSpan={3}>
                  <LineModifiers choice={l.choice} />
                </td>
              </tr>
            ),
          ])}
        </tbody>
      </table>
      <dl className="receipt-lines">
        {t.cartDiscountCents > 0 && (
          <div>
            <dt>{cart.cartDiscount?.kind === 'comp' ? `${DISCOUNT_COPY.compLabel} (whole sale)` : 'Sale discount'}</dt>
            <dd>−{money(t.cartDiscountCents)}</dd>
          </div>
        )}
        <div>
          <dt>Subtotal</dt>
          <dd>{money(t.subtotalCents)}</dd>
        </div>
        <CartTaxAndTotal totals={t} totalTestId={copy === 'customer' ? 'receipt-total' : 'receipt-merchant-total'} />
        {paidBy.map((x) => (
          <TenderLines key={x.id} tender={x} card={data.cards[x.id]} split={split} />
        ))}
        {cart.changeCents > 0 && (
          <div className="receipt-total">
            <dt>Change</dt>
            <dd data-testid={copy === 'customer' ? 'receipt-change' : undefined}>{money(cart.changeCents)}</dd>
          </div>
        )}
      </dl>
      {copy === 'merchant' &&
        cart.level3.map((n) => (
          <p key={n.transactionId} className="receipt-small" data-testid="receipt-level3">
            {n.note}
          </p>
        ))}
      {copy === 'merchant' && comped && cart.discountApprovedBy && (
        <p className="receipt-small" data-testid="receipt-comp-by">
          {DISCOUNT_COPY.compLabel} approved by {cart.discountApprovedBy}
        </p>
      )}
      {copy === 'merchant' && signature && <SignatureBlock />}
      <p className="receipt-foot">{receiptFoot(copy)}</p>
    </article>
  );
}

/** Both copies of a cart's receipt. */
export function CartReceiptSet({ data, header }: { data: CartReceiptData; header: ReceiptHeader }) {
  return <BothCopies receipt={(copy) => <CartReceipt data={data} header={header} copy={copy} />} />;
}

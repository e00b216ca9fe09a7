import type { ReactNode } from 'react';
import type { TransactionView } from '../../../shared/ipc/contract';
import { CVM_WORDING, checkAuthorization } from '../../../shared/payments/receipt-wording';
import { shortRefOf } from '../../../shared/short-ref';
import { money } from '../ui/money-format';
import { dateAndTime } from '../ui/time-format';
import { Fact } from '../ui/fact';
import { ReceiptSuggestedTips } from './receipt-suggested-tips';
import { CARD_AGREEMENT, ENTRY_WORDS, RESULT_WORDS } from '../../../shared/receipts/receipt-words';


/** The store's lines at the top of every receipt (from the store settings). */
export interface ReceiptHeader {
  name: string;
  address: string;
  phone: string;
}

export type ReceiptCopy = 'customer' | 'merchant';

/**
 * A receipt a merchant can hand over. On screen it is a paper slip; in print (@media
 * print) the page holds only receipts, sized for an 80 mm roll or a letter page alike.
 * Amounts are the money actually approved; a partial approval says so on its own line.
 * The merchant copy carries the signature line when the card verification calls for one.
 * A chip or contactless receipt prints the application (AID and label) and how the
 * cardholder was verified; a check paid by electronic debit prints its number and the
 * customer's authorization of the debit, signed on the merchant copy.
 */

/*
 * The parts a receipt is made of, shared with the cart's receipt (cart-receipt.tsx), so a
 * sale rung up as a cart prints the same card facts, cashier, store lines and signature.
 */

/** The store's lines, the date and the cashier. */
export function ReceiptHead({ header, createdTs, cashier }: { header: ReceiptHeader; createdTs: number; cashier: string | null }) {
  return (
    <header className="receipt-head">
      <strong className="receipt-merchant">{header.name}</strong>
      {header.address && <span className="receipt-address">{header.address}</span>}
      {header.phone && <span>{header.phone}</span>}
      <span>{dateAndTime(createdTs)}</span>
      {cashier && <span data-testid="receipt-cashier">Cashier: {cashier}</span>}
    </header>
  );
}

/** The card (brand and last four, never more) and how it was presented: rows of a receipt's list. */
export function CardFacts({ t }: { t: TransactionView }) {
  return (
    <>
      <div>
        <dt>{t.entryMode === 'check' ? 'Account' : 'Card'}</dt>
        <dd>
          {t.cardBrand} •••• {t.lastFour}
        </dd>
      </div>
      <Fact label="Entry">{ENTRY_WORDS[t.entryMode ?? 'keyed']}</Fact>
      {t.checkNumber && <Fact label="Check no." testId="receipt-check-number">{t.checkNumber}</Fact>}
      {t.emv && (
        <>
          <Fact label="Application" testId="receipt-emv-label">{t.emv.label}</Fact>
          <Fact label="AID" testId="receipt-emv-aid">{t.emv.aid}</Fact>
          <Fact label="Verification" testId="receipt-emv-cvm">{CVM_WORDING[t.emv.cvm]}</Fact>
        </>
      )}
    </>
  );
}

/** The issuer's auth code, the receipt's Ref and a chip card's TVR and TSI: rows of a receipt's list. */
export function AuthAndRef({ t }: { t: TransactionView }) {
  return (
    <>
      {t.authCode && <Fact label="Auth code">{t.authCode}</Fact>}
      <div>
        <dt>Ref</dt>
        <dd className="receipt-ref" data-testid="receipt-ref">
          {t.ref}
        </dd>
      </div>
      {t.emv?.tvr && <Fact label="TVR">{t.emv.tvr}</Fact>}
      {t.emv?.tsi && <Fact label="TSI">{t.emv.tsi}</Fact>}
    </>
  );
}

/** The signature line the merchant's copy carries when the card verification (or a check's debit) calls for one. */
export function SignatureBlock({ text = CARD_AGREEMENT }: { text?: string }) {
  return (
    <div className="receipt-signature" data-testid="receipt-signature">
      <span aria-hidden="true">X</span>
      <span className="receipt-signature-line">Signature</span>
      <span className="receipt-small">{text}</span>
    </div>
  );
}

export const receiptFoot = (copy: ReceiptCopy) => (copy === 'merchant' ? 'Merchant copy' : 'Customer copy · Thank you!');

/** A card's own lines on a receipt of a sale paid on two cards: the card, what it paid, how it was taken, auth code and Ref. */
function CardPaid({ t }: { t: TransactionView }) {
  return (
    <>
      <div className="receipt-tender" data-testid="receipt-card">
        <dt>
          {t.cardBrand} •••• {t.lastFour}
        </dt>
        <dd>{money(t.amountCents)}</dd>
      </div>
      <Fact label="Entry">{ENTRY_WORDS[t.entryMode ?? 'keyed']}</Fact>
      <AuthAndRef t={t} />
    </>
  );
}

/**
 * `first`: the partial approval this sale collected the rest of. The receipt is then of the
 * whole sale — its subtotal, tax, tip and total from the first card's request — and of every
 * card with what each paid. Simplification: only the result screen knows the first card (an
 * e-mailed or reprinted receipt is still of one transaction, which names the other by Ref).
 */
export function Receipt({ t, header, copy = 'customer', first = null }: { t: TransactionView; header: ReceiptHeader; copy?: ReceiptCopy; first?: TransactionView | null }) {
  const refund = t.kind === 'refund';
  /** The first card of a sale paid on two (null when one card paid). */
  const split = !refund && t.state !== 'declined' ? first : null;
  const whole = split ?? t;
  const subtotal = whole.requestedCents - whole.taxCents - whole.tipCents;
  const checkAuth = t.entryMode === 'check' && t.state !== 'declined' ? checkAuthorization(header.name) : null;
  return (
    <article className="receipt" aria-label={copy === 'customer' ? 'Receipt' : 'Receipt, merchant copy'} data-testid={copy === 'customer' ? 'receipt' : 'receipt-merchant'}>
      <ReceiptHead header={header} createdTs={t.createdTs} cashier={t.clerkName} />
      <p className="receipt-type">{refund ? 'REFUND' : 'SALE'}</p>
      {/* Issue 13: taken while the gateway could not be reached; forwarded later. */}
      {t.offline && (
        <p className="receipt-offline" data-testid="receipt-offline">
          APPROVED OFFLINE — sent to the card issuer when the gateway answers again
        </p>
      )}
      <dl className="receipt-lines">
        {refund && t.previousTransactionId && <Fact label="Refund of sale">Ref {shortRefOf(t.previousTransactionId)}</Fact>}
        {split === null && <CardFacts t={t} />}
        {!refund && (whole.taxCents > 0 || whole.tipCents > 0) && <Fact label="Subtotal">{money(subtotal)}</Fact>}
        {!refund && whole.taxCents > 0 && <Fact label="Tax">{money(whole.taxCents)}</Fact>}
        {!refund && whole.tipCents > 0 && <Fact label="Tip">{money(whole.tipCents)}</Fact>}
        {split ? (
          <>
            <div className="receipt-total" data-testid="receipt-sale-total">
              <dt>Total</dt>
              <dd>{money(split.requestedCents)}</dd>
            </div>
            <CardPaid t={split} />
            <CardPaid t={t} />
          </>
        ) : t.partial ? (
          <>
            <Fact label="Total due">{money(t.requestedCents)}</Fact>
            <div className="receipt-total" data-testid="receipt-partial">
              <dt>Approved (partial)</dt>
              <dd>{money(t.amountCents)}</dd>
            </div>
            <Fact label="Still to pay">{money(t.requestedCents - t.amountCents)}</Fact>
          </>
        ) : (
          <div className="receipt-total">
            <dt>{refund ? 'Refund' : 'Total'}</dt>
            <dd>{refund ? `-${money(t.amountCents)}` : money(t.amountCents)}</dd>
          </div>
        )}
        {t.refundedCents > 0 && <Fact label="Refunded">-{money(t.refundedCents)}</Fact>}
        <Fact label="Result">{t.offline ? 'APPROVED OFFLINE' : RESULT_WORDS[t.state]}</Fact>
        {split === null && <AuthAndRef t={t} />}
      </dl>
      {checkAuth && copy === 'customer' && (
        <p className="receipt-small receipt-authorization" data-testid="receipt-check-authorization">
          {checkAuth}
        </p>
      )}
      <ReceiptSuggestedTips t={t} />
      {copy === 'merchant' && (t.signatureLine || first?.signatureLine || checkAuth) && t.state !== 'declined' && <SignatureBlock {...(checkAuth ? { text: checkAuth } : {})} />}
      <p className="receipt-foot">{t.state === 'declined' ? 'No charge was made.' : receiptFoot(copy)}</p>
    </article>
  );
}

/** Both copies of a receipt, each drawn by `receipt`: the customer's on screen, the merchant's printed after it. */
export function BothCopies({ receipt }: { receipt: (copy: ReceiptCopy) => ReactNode }) {
  return (
    <div className="receipt-set">
      {receipt('customer')}
      <div className="print-only">{receipt('merchant')}</div>
    </div>
  );
}

/** Both copies of a transaction's receipt (`first`: see Receipt). */
export function ReceiptSet({ t, header, first = null }: { t: TransactionView; header: ReceiptHeader; first?: TransactionView | null }) {
  return <BothCopies receipt={(copy) => <Receipt t={t} header={header} copy={copy} first={first} />} />;
}

/** The header from the sale configuration (store settings), or the name alone while it loads. */
export function receiptHeaderOf(config: { merchantName: string; storeAddress: string; storePhone: string } | null): ReceiptHeader {
  return { name: config?.merchantName ?? '', address: config?.storeAddress ?? '', phone: config?.storePhone ?? '' };
}

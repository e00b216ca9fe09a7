import { useCallback, useEffect, useRef } from 'react';
import { AmountKeypad } from './amount-keypad';
import { CardForm, type CardFormHandle } from './card-form';
import { TerminalPayment } from '../devices/terminal-payment';
import { SavedMethodCharge } from '../vault/saved-method-charge';
import { TipPicker } from './tip-picker';
import { tipSuggestions } from '../../../shared/payments/tip-suggestions';
import type { KeypadKey } from './amount-entry';
import { formatPercentBp, money } from '../ui/money-format';
import { isTypingTarget } from '../shell/shortcuts';
import { useSaleStore } from './sale-store';
import { useTerminalStore } from '../devices/terminal-store';
import { useNavStore } from '../shell/nav-store';
import { LargeAmountDialog } from './large-amount-dialog';
import { aboveHardCap, hardCapSentence } from '../../../shared/amount-guards';
import { SaleResult } from './sale-result';
// --- cart hook-in (issue 15)
import { CartPanel } from '../cart/cart-panel';
import { CartReceiptSet } from '../cart/cart-receipt';
import { receiptHeaderOf } from '../receipts/receipt';
import { OfflineTenderCustomer } from '../queue/offline-customer';
import { QuickKeys } from '../cart/quick-keys';
import { useCartStore } from '../cart/cart-store';
import { useAcknowledgeShown } from '../queue/acknowledge-shown';
import { useWedgeScanner } from '../cart/use-wedge-scanner';
import { useSerialScanner } from '../cart/use-serial-scanner';
import { sayScanRefused, takeScannedCode } from '../cart/scanned-code';
import { useCartPrint } from '../receipts/use-cart-print';
import { PrintNoteLine } from '../receipts/print-note';

/**
 * A keyed sale: amount on the keypad (or the keyboard), optional tax, a tip, the
 * card, Charge. Enter moves from the amount to the card; Enter in the card charges.
 */
export function SaleScreen() {
  const s = useSaleStore();
  const cardRef = useRef<CardFormHandle>(null);
  const screenRef = useRef<HTMLDivElement>(null);
  const { config, loadConfig, press, phase, visited } = s;
  const visit = useNavStore((n) => n.visit);
  // --- devices hook-in (issue 12): terminal status, and whether the terminal asks the tip.
  const terminal = useTerminalStore();
  const loadTerminal = terminal.load;
  useEffect(() => {
    void loadTerminal();
  }, [loadTerminal]);
  const tipOnTerminal = terminal.method() === 'terminal' && terminal.tipOnTerminal && terminal.status?.tipPercents != null;
  const byCheck = terminal.method() === 'check'; // checks carry no tip
  // --- end devices hook-in

  useEffect(() => {
    if (!config) void loadConfig();
  }, [config, loadConfig]);

  // F2 or the Sale tab always start a new sale: an amount left from before must never grow by the next digits.
  // (A sale whose outcome is unknown, or an open partial approval, is kept: newSale refuses or asks.)
  useEffect(() => {
    visited(visit);
  }, [visit, visited]);

  useEffect(() => {
    if (phase === 'entry') screenRef.current?.focus({ preventScroll: true });
  }, [phase]);

  useEffect(() => {
    if (phase === 'result') return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target)) return;
      if (document.querySelector('[aria-modal="true"]')) return; // a question or a picker is open: digits are not the amount's
      let key: KeypadKey | null = null;
      if (/^\d$/.test(e.key)) key = e.key as KeypadKey;
      else if (e.key === 'Backspace') key = 'back';
      else if (e.key === 'Delete') key = 'clear';
      if (key) {
        e.preventDefault();
        press(key);
      } else if (e.key === 'Enter' && !(e.target instanceof HTMLButtonElement)) {
        e.preventDefault();
        cardRef.current?.focusNumber();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [phase, press]);

  // --- cart hook-in (issue 15): with a catalogue, items go to a cart (the keypad adds open amounts); without one the screen is as before.
  const cart = useCartStore();
  const loadCart = cart.load;
  // A cart card payment approved offline: once its sentence shows (panel, paid view or here), the queue may send it (issue 20, point 3).
  useAcknowledgeShown(cart.message ? cart.shownOffline : null);
  useEffect(() => {
    void loadCart();
  }, [loadCart]);
  const cartActive = cart.cart !== null && (cart.cart.lines.length > 0 || cart.cart.status !== 'open');
  const catalogueOn = cart.items.length > 0 || cartActive;
  // --- end cart hook-in

  // Issue 21, point 9: a barcode scanner that types adds the item, wherever the focus is on this screen (not in another field).
  // A due cart, or one with a payment taken or running, keeps its lines as they are (no quick key, no scan).
  const linesFixed = cart.cart?.status === 'due' || (cart.cart?.tenders.some((t) => t.status === 'approved' || t.status === 'pending') ?? false);
  // The item picker (issue 23) takes the keys while it is open (Enter adds, Esc closes).
  const scanOpen = catalogueOn && !cart.receipt && phase === 'entry' && s.firstCard === null && !linesFixed && cart.picking === null;
  const addCode = cart.addCode;
  const readAmount = useCallback(() => useSaleStore.getState().subtotalCents, []);
  const restoreAmount = useCallback((cents: number) => useSaleStore.setState({ subtotalCents: cents }), []);
  // Issue 23, point 5: a serial scanner's codes (pushed by the core) go through the same handling as the wedge's.
  const onScan = useCallback((code: string) => void takeScannedCode(code, { open: scanOpen, add: addCode }), [scanOpen, addCode]);
  const onScanRefused = useCallback((message: string) => void sayScanRefused(message, { open: scanOpen, note: (text) => useCartStore.setState({ scanNote: { added: false, text } }) }), [scanOpen]);
  useWedgeScanner({ enabled: scanOpen, onScan, readAmount, restoreAmount });
  useSerialScanner({ onScan, onRefused: onScanRefused });
  // Issue 23: a paid cart's receipt prints by itself on the receipt printer, when one is registered.
  const cartPrint = useCartPrint(cart.receipt?.id ?? null, true);

  if (cart.receipt) {
    return (
      <div className="result-layout">
        <section className="panel" aria-labelledby="paid-title">
          <h1 id="paid-title" className="section-title">
            Paid
          </h1>
          {cart.receipt.changeCents > 0 && (
            <p className="change-due" data-testid="change-due">
              Change due <strong>{money(cart.receipt.changeCents)}</strong>
            </p>
          )}
          {cart.message && <p className="notice notice-info">{cart.message}</p>}
          {/* Level 3 is the merchant's business: said here and on the merchant's copy, not on the customer's. */}
          {cart.receipt.level3.map((n) => (
            <p key={n.transactionId} className="notice notice-info" data-testid="paid-level3">
              {n.note}
            </p>
          ))}
          <OfflineTenderCustomer tenders={cart.receipt.tenders} />
          <div className="form-actions">
            <button type="button" className="btn btn-primary btn-xl" onClick={() => void cart.newSale()} autoFocus>
              New sale
            </button>
            <button type="button" className="btn btn-secondary btn-lg" onClick={cartPrint.print}>
              Print receipt
            </button>
          </div>
          <PrintNoteLine note={cartPrint.note} />
        </section>
        <CartReceiptSet data={cart.receiptData ?? { cart: cart.receipt, cashier: null, cards: {} }} header={receiptHeaderOf(config)} />
      </div>
    );
  }

  if (phase === 'result' && s.outcome) {
    return (
      <SaleResult
        outcome={s.outcome}
        config={config}
        firstCard={s.firstCard}
        onNewSale={s.newSale}
        onHandedToCart={s.startOver}
        onRetry={s.retry}
        onCollectRest={s.collectRest}
        onVoidPartial={s.voidPartial}
      />
    );
  }

  const totals = s.totals();
  const charging = phase === 'charging' || phase === 'checking';
  // While a keyed charge runs or its outcome is unknown, no other way to take money is open (never charged twice).
  const lockedReason = phase === 'checking' ? 'Checking with the gateway whether the card was charged…' : charging ? 'Charging…' : null;
  // The rest of a partial approval is a fixed amount: no tip, no tax, no items added on top.
  const fixedRest = s.firstCard !== null;
  const taxBp = config?.taxRateBasisPoints ?? 0;
  const blocked = !config
    ? 'Loading the store settings…'
    : totals.subtotalCents === 0
      ? 'Type the amount first (keypad or keyboard).'
      : aboveHardCap(config, totals.totalCents)
        ? hardCapSentence(config.hardCapCents)
        : null;
  const q = s.question;

  return (
    <div className="sale-layout" ref={screenRef} tabIndex={-1} aria-label="Sale" data-screen-focus>
      {/* Each side scrolls inside itself (issue 21): it takes the focus, so the keyboard scrolls it even while its controls are disabled. */}
      <section className="panel" aria-labelledby="sale-title" tabIndex={0}>
        <h1 id="sale-title" className="section-title">
          {s.firstCard ? 'Collect the rest' : 'New sale'}
        </h1>
        {s.firstCard && (
          <p className="notice notice-info" data-testid="collect-rest">
            {money(s.firstCard.transaction.amountCents)} of the {money(s.firstCard.transaction.requestedCents)} sale was approved on {s.firstCard.transaction.cardBrand} ••••{' '}
            {s.firstCard.transaction.lastFour}. Charge the remaining {money(s.firstCard.restCents)} to another card.
          </p>
        )}
        {!cartActive && cart.message && (
          <p className="notice notice-ok" role="status" data-testid="cart-message">
            {cart.message}
          </p>
        )}
        {catalogueOn && <QuickKeys disabled={charging || fixedRest || cart.busy || linesFixed} />}
        <AmountKeypad cents={s.subtotalCents} disabled={charging || s.firstCard !== null} onKey={press} />
        {catalogueOn && (
          <button
            type="button"
            className="btn btn-secondary btn-lg btn-block"
            disabled={s.subtotalCents === 0 || cart.busy || charging || fixedRest || cart.cart?.status === 'due'}
            onClick={() => void cart.addOpen(s.subtotalCents).then((added) => added && s.newSale())}
          >
            Add {money(s.subtotalCents)} to the cart
          </button>
        )}
        {/* Issue 14: charge a customer's saved card or bank account instead of keying one. */}
        <SavedMethodCharge blockedReason={lockedReason ?? blocked} />
      </section>
      {/* A cart (and its tenders) never replaces a keyed sale whose outcome is not known yet. */}
      {cartActive && !charging ? (
        <CartPanel />
      ) : (
      <section className="panel order-panel" aria-label="Order and card" tabIndex={0}>
        {s.configError && (
          <p className="notice notice-error" role="alert">
            {s.configError}
          </p>
        )}
        {config && config.tipEnabled && !tipOnTerminal && !byCheck && (
          <TipPicker
            offer={tipSuggestions(totals.subtotalCents, totals.taxCents, config.tipRules, config.tipPercents)}
            value={s.tip}
            disabled={charging || fixedRest}
            onChange={s.setTip}
          />
        )}
        <dl className="summary" data-testid="sale-summary">
          <div>
            <dt>Subtotal</dt>
            <dd>{money(totals.subtotalCents)}</dd>
          </div>
          <div className="summary-tax">
            <dt>
              {taxBp > 0 ? (
                <label className="switch">
                  <input type="checkbox" checked={s.taxOn} disabled={charging || fixedRest} onChange={(e) => s.setTaxOn(e.target.checked)} />
                  <span className="switch-track" aria-hidden="true" />
                  Sales tax ({formatPercentBp(taxBp)})
                </label>
              ) : (
                'Tax'
              )}
            </dt>
            <dd>{money(totals.taxCents)}</dd>
          </div>
          <div>
            <dt>Tip</dt>
            <dd>{tipOnTerminal ? 'on the terminal' : money(byCheck ? 0 : totals.tipCents)}</dd>
          </div>
          <div className="summary-total">
            <dt>Total</dt>
            <dd data-testid="sale-total">{money(tipOnTerminal || byCheck ? totals.totalCents - totals.tipCents : totals.totalCents)}</dd>
          </div>
        </dl>
        {s.error && (
          <p className="notice notice-error" role="alert" data-testid="sale-error">
            {s.error}
          </p>
        )}
        {s.notice && (
          <p className="notice notice-ok" role="status" data-testid="sale-notice">
            {s.notice}
          </p>
        )}
        {/* devices hook-in (issue 12): terminal / keyed card / check; the card form is the keyed choice */}
        <TerminalPayment
          subtotalCents={totals.subtotalCents}
          taxCents={totals.taxCents}
          tipCents={totals.tipCents}
          blockedReason={blocked}
          lockedReason={lockedReason}
          onOutcome={(outcome) => useSaleStore.setState({ phase: 'result', outcome })}
          keyedForm={
            <CardForm
              ref={cardRef}
              disabled={charging}
              blockedReason={blocked}
              charging={charging}
              chargeLabel={`Charge ${money(totals.totalCents)}`}
              chargingLabel={phase === 'checking' ? 'Checking with the gateway…' : 'Charging…'}
              serverErrors={s.fieldErrors}
              resetToken={s.cardResetToken}
              onCharge={(card) => void s.charge(card)}
            />
          }
        />
      </section>
      )}
      {q && <LargeAmountDialog question={q} config={config} onAnswer={s.answer} />}
    </div>
  );
}

/**
 * The customer display (issue 23, point 4): the only thing this page renders when its address
 * asks for it (display-view-request.ts) — no sign-in, no navigation. Large type read from a metre
 * away, sized to the screen's height so an 800×480 customer screen and a 1920×1080 one show the
 * same layout: idle, the store's name; the cart as it is rung up with its total (and the tip
 * choice when one is offered); the terminal's prompt; "Approved" / "Declined"; the change due;
 * "Thank you". It shows only what the core pushes; it never asks the counter anything.
 */
import { useEffect, useRef } from 'react';
import type { DisplayCart, DisplayState } from '../../../shared/ipc/display';
import { money } from '../ui/money-format';
import '../shell/theme-store';
import { DisplayTipChoice } from './display-tip';
import { useDisplayStore } from './display-store';
import './customer-display.css';

function CartLines({ cart }: { cart: DisplayCart }) {
  const endRef = useRef<HTMLLIElement>(null);
  // The newest line stays in view as the cashier rings up more than the screen holds.
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [cart.lines.length]);
  return (
    <ul className="cd-lines" aria-label="Your items">
      {cart.lines.map((l, i) => (
        <li key={l.id} className="cd-line" data-testid="display-line" ref={i === cart.lines.length - 1 ? endRef : undefined}>
          <span className="cd-line-name">
            {l.quantity > 1 && <span className="cd-qty">{l.quantity} × </span>}
            {l.name}
            {l.details.length > 0 && (
              <span className="cd-details">
                {l.details.map((d) => (
                  <span key={d.name} className="cd-detail">
                    {d.name}
                    {d.priceCents > 0 && ` +${money(d.priceCents)}`}
                  </span>
                ))}
              </span>
            )}
          </span>
          <span className="cd-line-amount">{money(l.amountCents)}</span>
        </li>
      ))}
    </ul>
  );
}

function CartTotals({ cart, tipCents }: { cart: DisplayCart; tipCents: number }) {
  const due = cart.paidCents > 0 ? cart.balanceCents : cart.totalCents;
  return (
    <dl className="cd-totals">
      {(cart.discountCents > 0 || cart.taxCents > 0) && (
        <div>
          <dt>Subtotal</dt>
          <dd>{money(cart.itemsCents)}</dd>
        </div>
      )}
      {cart.discountCents > 0 && (
        <div>
          <dt>Discounts</dt>
          <dd>−{money(cart.discountCents)}</dd>
        </div>
      )}
      {cart.taxCents > 0 && (
        <div>
          <dt>Tax</dt>
          <dd>{money(cart.taxCents)}</dd>
        </div>
      )}
      {cart.paidCents > 0 && (
        <div>
          <dt>Paid</dt>
          <dd>−{money(cart.paidCents)}</dd>
        </div>
      )}
      <div className="cd-total">
        <dt>{cart.paidCents > 0 ? 'Left to pay' : 'Total'}</dt>
        <dd data-testid="display-total">{money(due)}</dd>
      </div>
      {/* The tip picked here rides on the card on top of the total: what the card will be charged, said before it is. */}
      {tipCents > 0 && (
        <div className="cd-with-tip">
          <dt>With your tip</dt>
          <dd data-testid="display-with-tip">{money(due + tipCents)}</dd>
        </div>
      )}
    </dl>
  );
}

/** The big word of a passing state, with what goes under it. */
function Message({ tone, title, sub, testId }: { tone: 'ok' | 'bad' | 'plain'; title: string; sub?: string; testId: string }) {
  return (
    <div className={`cd-message cd-${tone}`} data-testid={testId}>
      <p className="cd-big">{title}</p>
      {sub && <p className="cd-sub">{sub}</p>}
    </div>
  );
}

function Body({ s }: { s: DisplayState }) {
  switch (s.phase) {
    case 'idle':
      return (
        <div className="cd-idle" data-testid="display-idle">
          <p className="cd-welcome">Welcome to</p>
          <h1 className="cd-store-big">{s.storeName}</h1>
        </div>
      );
    case 'cart':
    case 'terminal':
      return s.cart ? (
        <div className="cd-cart">
          <CartLines cart={s.cart} />
          <div className="cd-foot">
            <CartTotals cart={s.cart} tipCents={s.phase === 'cart' && s.tip?.picked && s.tip.picked.kind !== 'none' ? s.tip.picked.cents : 0} />
            {s.phase === 'terminal' ? (
              <p className="cd-prompt" data-testid="display-prompt">
                {s.prompt}
              </p>
            ) : (
              s.tip && <DisplayTipChoice tip={s.tip} />
            )}
          </div>
        </div>
      ) : (
        <Message tone="plain" title={s.prompt ?? ''} testId="display-prompt" />
      );
    case 'approved':
      return <Message tone="ok" title="Approved" sub={s.amountCents > 0 ? `${money(s.amountCents)} on your card` : undefined} testId="display-approved" />;
    case 'declined':
      return <Message tone="bad" title="Declined" sub="Please try another card or another way to pay." testId="display-declined" />;
    case 'change':
      return <Message tone="plain" title={`Change due ${money(s.amountCents)}`} sub="Thank you!" testId="display-change" />;
    case 'thanks':
      return <Message tone="ok" title="Thank you" sub={`See you again at ${s.storeName}.`} testId="display-thanks" />;
  }
}

export function CustomerDisplay() {
  const state = useDisplayStore((s) => s.state);
  const error = useDisplayStore((s) => s.error);
  const start = useDisplayStore((s) => s.start);
  useEffect(() => start(), [start]);
  useEffect(() => {
    document.title = state ? `${state.storeName} — customer display` : 'Customer display';
  }, [state]);

  return (
    <main className="cd" data-phase={state?.phase ?? 'idle'} aria-label="Customer display">
      {/* The store's name is the page's heading: large when idle, a strip above the rest otherwise. */}
      {state && state.phase !== 'idle' && <h1 className="cd-store">{state.storeName}</h1>}
      {/* Everything the customer is told arrives here: a screen reader says each change. */}
      <div className="cd-body" aria-live="polite">
        {state ? (
          <Body s={state} />
        ) : (
          <>
            <h1 className="cd-store">Customer display</h1>
            <p className="cd-sub">{error ?? 'Connecting…'}</p>
          </>
        )}
      </div>
      {state && error && (
        <p className="cd-offline" role="status">
          {error}
        </p>
      )}
    </main>
  );
}

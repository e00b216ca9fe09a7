/**
 * The cart's terminal tender: shown when the counter has a reachable terminal. It pays the
 * balance, or a typed part of it, on the terminal (the core's router path); while the
 * terminal works its prompt is followed live (pushed `terminal:state`) with Cancel.
 * The tip (issue 21): the one chosen on the cart's tip picker on top, or — when the terminal has
 * tip choices and the cashier leaves it to the customer (the sale screen's same switch) — picked
 * there, by the store's tip base.
 */
import { useState } from 'react';
import { balancePart } from '../sales/balance-part';
import { money } from '../ui/money-format';
import { useCartStore } from './cart-store';
import { useSaleStore } from '../sales/sale-store';
import { useTerminalStore } from '../devices/terminal-store';
import { TextField } from '../ui/text-field';

export function CartTerminalTender({ balanceCents }: { balanceCents: number }) {
  const busy = useCartStore((s) => s.busy);
  const payTerminal = useCartStore((s) => s.payTerminal);
  const status = useTerminalStore((s) => s.status);
  const prompt = useTerminalStore((s) => s.prompt);
  const cancel = useTerminalStore((s) => s.cancel);
  const tipOnTerminal = useTerminalStore((s) => s.tipOnTerminal);
  const setTipOnTerminal = useTerminalStore((s) => s.setTipOnTerminal);
  const tipsEnabled = useSaleStore((s) => s.config?.tipEnabled ?? false);
  const screenTip = useCartStore((s) => s.tipCents());
  const [text, setText] = useState('');
  const [running, setRunning] = useState(false);
  if (!status || (status.connection !== 'connected' && status.connection !== 'busy')) return null;
  const part = balancePart(text, balanceCents);
  const bad = part.error !== null;
  const amount = part.cents;
  const canAsk = tipsEnabled && status.tipPercents !== null;
  const askTip = canAsk && tipOnTerminal;

  async function pay() {
    setRunning(true);
    await payTerminal(part.blank ? undefined : amount, askTip);
    setRunning(false);
    setText('');
  }

  return (
    <div className="cash-tender" role="group" aria-labelledby="cart-terminal-title">
      <h3 id="cart-terminal-title" className="subsection-title">
        Terminal: {status.title}
      </h3>
      {canAsk && !running && (
        <label className="switch">
          <input type="checkbox" checked={tipOnTerminal} disabled={busy} onChange={(e) => setTipOnTerminal(e.target.checked)} />
          <span className="switch-track" aria-hidden="true" />
          Customer picks the tip on the terminal
        </label>
      )}
      {running ? (
        <div className="terminal-live" role="status" aria-live="polite" data-testid="cart-terminal-live">
          <p className="terminal-prompt" data-testid="cart-terminal-prompt">
            {prompt || 'Waiting for the terminal…'}
          </p>
          <button type="button" className="btn btn-secondary btn-lg" onClick={() => void cancel()} data-testid="cart-terminal-cancel">
            Cancel
          </button>
        </div>
      ) : (
        <form
          className="input-row"
          onSubmit={(e) => {
            e.preventDefault();
            if (!bad) void pay();
          }}
        >
          <TextField id="cart-terminal-amount" label="Amount on the terminal (blank: all of it)" inputMode="decimal" value={text} onChange={setText} error={part.error} />
          <button type="submit" className="btn btn-primary btn-lg" disabled={busy || bad} data-testid="cart-pay-terminal">
            Pay {money(amount + (askTip ? 0 : screenTip))} on the terminal{askTip ? ' + tip' : ''}
          </button>
        </form>
      )}
    </div>
  );
}

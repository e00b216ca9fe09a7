/**
 * How the customer pays, under the order summary: on the terminal (the default when one is
 * set up), a keyed card (the fallback, the existing card form), or a check through the
 * scanner (ACH). While the terminal works, its screen is followed live with Cancel.
 */
import { useState, type ReactNode } from 'react';
import { TERMINAL_SERIAL_MSG, type SaleOutcome, type TerminalScreenState } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';
import { terminalTipRequest } from '../../../shared/payments/tip-suggestions';
import { useSaleStore } from '../sales/sale-store';
import { useTerminalStore, type PayMethod } from './terminal-store';
import { CheckKeyedForm } from './check-keyed-form';

interface Props {
  subtotalCents: number;
  taxCents: number;
  /** Tip chosen on screen (used when the tip is not asked on the terminal). */
  tipCents: number;
  blockedReason: string | null;
  /** Set while a keyed charge of this sale is running or its outcome is unknown: every way to pay stays closed (never charged twice). */
  lockedReason?: string | null;
  keyedForm: ReactNode;
  onOutcome(o: SaleOutcome): void;
}

const METHODS: { id: PayMethod; label: string }[] = [
  { id: 'terminal', label: 'Terminal' },
  { id: 'keyed', label: 'Key card' },
  { id: 'check', label: 'Check' },
];

const STEPS: { state: TerminalScreenState; label: string }[] = [
  { state: 'card', label: 'Card' },
  { state: 'tip', label: 'Tip' },
  { state: 'pin', label: 'PIN' },
  { state: 'signature', label: 'Signature' },
  { state: 'processing', label: 'Approval' },
];

const CONNECTION_TEXT = { none: 'not set up', connected: 'ready', busy: 'busy', offline: 'offline' } as const;

export function TerminalPayment({ subtotalCents, taxCents, tipCents, blockedReason: amountBlocked, lockedReason = null, keyedForm, onOutcome }: Props) {
  const blockedReason = lockedReason ?? amountBlocked;
  const t = useTerminalStore();
  const [holder, setHolder] = useState('');
  const [holderError, setHolderError] = useState<string | null>(null);
  /** The cashier keys the check's numbers (its MICR line would not scan). */
  const [keying, setKeying] = useState(false);
  const method = t.method();
  const percents = t.status?.tipPercents ?? null;
  const askTip = method === 'terminal' && t.tipOnTerminal && percents !== null;
  const total = subtotalCents + taxCents + (askTip ? 0 : tipCents);
  const current = STEPS.findIndex((s) => s.state === t.screen);
  // What the terminal will offer (issue 21): its own percents, or the store's smart-tip amounts on a small sale.
  const tipRules = useSaleStore((s) => s.config?.tipRules);
  const told = tipRules ? terminalTipRequest(subtotalCents, taxCents, tipRules) : null;
  const offered = told?.tipAmountsCents ? told.tipAmountsCents.map(money).join(', ') : `${(percents ?? []).join('%, ')}%`;

  return (
    <div className="pay-area" data-testid="pay-area">
      <div className="segmented" role="radiogroup" aria-label="How the customer pays">
        {METHODS.map((m) => (
          <button key={m.id} type="button" role="radio" aria-checked={method === m.id} className="segment" disabled={t.running || lockedReason !== null} onClick={() => t.choose(m.id)}>
            {m.label}
          </button>
        ))}
      </div>

      {method === 'keyed' && keyedForm}

      {method === 'terminal' && (
        <div className="terminal-pay">
          <p className="muted terminal-line" data-testid="terminal-line">
            Terminal: <strong>{t.status?.title ?? 'none'}</strong> ({CONNECTION_TEXT[t.status?.connection ?? 'none']})
          </p>
          {t.status?.serialMismatch && (
            <p className="notice notice-error" data-testid="terminal-serial-mismatch">
              {TERMINAL_SERIAL_MSG.mismatch(t.status.serialMismatch.registered, t.status.serialMismatch.reported)}
            </p>
          )}
          {t.status?.connection === 'none' && <p className="notice notice-info">No terminal is set up. Key the card instead, or ask an installer to add one.</p>}
          {t.status?.connection === 'offline' && <p className="notice notice-error">The terminal is offline. Check its power and network, or key the card.</p>}
          {percents && (
            <label className="switch">
              <input type="checkbox" checked={t.tipOnTerminal} disabled={t.running} onChange={(e) => t.setTipOnTerminal(e.target.checked)} />
              <span className="switch-track" aria-hidden="true" />
              Customer picks the tip on the terminal ({offered})
            </label>
          )}
          {t.running ? (
            <div className="terminal-live" role="status" aria-live="polite" data-testid="terminal-live">
              <p className="terminal-prompt" data-testid="terminal-prompt">
                {t.prompt || 'Waiting for the terminal…'}
              </p>
              <ol className="terminal-steps" aria-label="Progress on the terminal">
                {STEPS.filter((s) => s.state !== 'tip' || askTip).map((s) => {
                  const i = STEPS.indexOf(s);
                  const cls = i === current ? 'step step-now' : current > i ? 'step step-done' : 'step';
                  return (
                    <li key={s.state} className={cls} aria-current={i === current ? 'step' : undefined}>
                      {s.label}
                    </li>
                  );
                })}
              </ol>
              <button type="button" className="btn btn-secondary btn-lg" onClick={() => void t.cancel()} data-testid="terminal-cancel">
                Cancel
              </button>
            </div>
          ) : (
            <>
              {blockedReason && <p className="charge-hint muted">{blockedReason}</p>}
              <button
                type="button"
                className="btn btn-primary btn-xl btn-block"
                disabled={!!blockedReason || t.status?.connection === 'none'}
                onClick={() => void t.payOnTerminal({ subtotalCents, taxCents, tipCents }, onOutcome)}
                data-testid="pay-terminal"
              >
                Pay {money(total)} on the terminal{askTip ? ' + tip' : ''}
              </button>
            </>
          )}
        </div>
      )}

      {method === 'check' && (
        <div className="check-pay">
          {!t.check && keying ? (
            <CheckKeyedForm
              onUse={(numbers) => {
                setKeying(false);
                t.keyCheck(numbers);
              }}
              onCancel={() => setKeying(false)}
            />
          ) : !t.check ? (
            <>
              <p className="muted">Feed the check into the scanner, then scan it.</p>
              <div className="form-actions">
                <button type="button" className="btn btn-secondary btn-lg" disabled={t.scanning} onClick={() => void t.scanCheck()} data-testid="scan-check">
                  {t.scanning ? 'Reading the check…' : 'Scan check'}
                </button>
                <button type="button" className="btn btn-quiet btn-lg" disabled={t.scanning} onClick={() => setKeying(true)}>
                  Key the numbers
                </button>
              </div>
            </>
          ) : (
            <form
              className="check-form"
              onSubmit={(e) => {
                e.preventDefault();
                if (!holder.trim()) {
                  setHolderError('Type the name printed on the check.');
                  return;
                }
                setHolderError(null);
                void t.payByCheck({ subtotalCents, taxCents, holderName: holder.trim() }, onOutcome);
              }}
            >
              <dl className="check-facts" data-testid="check-facts">
                <div>
                  <dt>Routing</dt>
                  <dd className="mono">{t.check.routing}</dd>
                </div>
                <div>
                  <dt>Account</dt>
                  <dd className="mono">•••• {t.check.account.slice(-4)}</dd>
                </div>
                <div>
                  <dt>Check no.</dt>
                  <dd className="mono">{t.check.checkNumber ?? '—'}</dd>
                </div>
              </dl>
              <div className="field">
                <label htmlFor="check-holder">Name on the check</label>
                <input id="check-holder" className="input" autoComplete="off" value={holder} maxLength={32}
                  aria-invalid={holderError ? true : undefined} aria-describedby={holderError ? 'check-holder-error' : undefined}
                  onChange={(e) => setHolder(e.target.value)} />
                {holderError && (
                  <p id="check-holder-error" className="field-error">
                    {holderError}
                  </p>
                )}
              </div>
              <div className="form-actions">
                <button type="submit" className="btn btn-primary btn-xl" disabled={t.running || !!blockedReason} data-testid="pay-check">
                  {t.running ? 'Sending…' : `Pay ${money(subtotalCents + taxCents)} by check`}
                </button>
                <button type="button" className="btn btn-quiet btn-lg" disabled={t.running} onClick={() => void t.scanCheck()}>
                  Scan again
                </button>
              </div>
            </form>
          )}
        </div>
      )}

      {t.error && method !== 'keyed' && !(method === 'check' && keying) && (
        <p className="notice notice-error" role="alert" data-testid="device-error">
          {t.error}
        </p>
      )}
    </div>
  );
}

/**
 * Adds a saved card (keyed) or bank account to a customer. Every field is checked as it
 * is typed with the same schemas the core applies (shared/ipc/vault.ts): Luhn for the
 * card, the ABA check digit for the routing number.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { addBankArgsSchema, addCardArgsSchema, bankAccountSchema, cardNumberSchema, expirySchema, routingSchema, VAULT_FIELD_ERRORS, type SavedMethod } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { digitsOnly, expiryMMYY, formatExpiryInput } from '../sales/card-entry';
import { schemaError } from '../ui/schema-check';
import { TextField } from '../ui/text-field';
import { useTerminalStore } from '../devices/terminal-store';
import { ErrorNote } from '../sales/outcome-note';

type Kind = 'card' | 'bank';

export function AddMethodForm({ contactId, onAdded }: { contactId: string; onAdded(m: SavedMethod): void }) {
  const [kind, setKind] = useState<Kind>('card');
  const [holder, setHolder] = useState('');
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [routing, setRouting] = useState('');
  const [account, setAccount] = useState('');
  const [accountType, setAccountType] = useState<'checking' | 'savings'>('checking');
  const [isCompany, setIsCompany] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [reading, setReading] = useState(false);
  // A card can be read on the counter's terminal instead of keyed, when one answers.
  const terminalReady = useTerminalStore((t) => t.status?.connection === 'connected');
  const loadTerminal = useTerminalStore((t) => t.load);
  useEffect(() => {
    void loadTerminal();
  }, [loadTerminal]);

  async function readOnTerminal() {
    setError(null);
    setReading(true);
    const r = await ringup.vaultAddOnTerminal({ contactId });
    setReading(false);
    if (!r.ok) return setError(r.error.message);
    onAdded(r.value);
  }

  const numberDigits = digitsOnly(number);
  // As typed: a wrong digit shows once the length is complete; everything shows after a try.
  const numberError = numberDigits.length >= 13 || tried ? schemaError(cardNumberSchema, numberDigits) : null;
  const expiryError = expiry.length >= 5 || tried ? schemaError(expirySchema, expiryMMYY(expiry)) : null;
  const routingError = routing.length >= 9 || tried ? schemaError(routingSchema, routing) : null;
  const accountError = tried ? schemaError(bankAccountSchema, account) : null;
  const holderError = kind === 'bank' && tried && !holder.trim() ? VAULT_FIELD_ERRORS.holder : null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    setError(null);
    const args =
      kind === 'card'
        ? addCardArgsSchema.safeParse({ contactId, holderName: holder, number: numberDigits, expiry: expiryMMYY(expiry) })
        : addBankArgsSchema.safeParse({ contactId, holderName: holder, routing, account, accountType, isCompany });
    if (!args.success) return;
    setBusy(true);
    const r = kind === 'card' ? await ringup.vaultAddCard(addCardArgsSchema.parse(args.data)) : await ringup.vaultAddBank(addBankArgsSchema.parse(args.data));
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    setNumber('');
    setExpiry('');
    setRouting('');
    setAccount('');
    setTried(false);
    onAdded(r.value);
  }

  return (
    <form className="add-method" onSubmit={(e) => void submit(e)} aria-labelledby="add-method-title" noValidate>
      <h3 id="add-method-title">Save a new payment method</h3>
      <div className="segmented" role="radiogroup" aria-label="Kind">
        {(['card', 'bank'] as const).map((k) => (
          <button key={k} type="button" role="radio" aria-checked={kind === k} className="segment" onClick={() => setKind(k)}>
            {k === 'card' ? 'Card' : 'Bank account'}
          </button>
        ))}
      </div>
      <div className="add-method-grid">
        <TextField id="vault-holder" label={kind === 'card' ? 'Name on card (optional)' : 'Name on the account'} value={holder} maxLength={32} error={holderError} onChange={setHolder} />
        {kind === 'card' ? (
          <>
            <TextField id="vault-number" label="Card number" className="input input-mono" inputMode="numeric" value={number} maxLength={23} error={numberError} onChange={(v) => setNumber(digitsOnly(v))} />
            <TextField id="vault-expiry" label="Expiry" className="input input-mono" inputMode="numeric" placeholder="MM/YY" value={expiry} maxLength={5} error={expiryError} onChange={(v) => setExpiry(formatExpiryInput(v, expiry))} />
          </>
        ) : (
          <>
            <TextField
              id="vault-routing"
              label="Routing number"
              className="input input-mono"
              inputMode="numeric"
              value={routing}
              maxLength={9}
              error={routingError}
              hint={routing.length === 9 && !routingError ? 'Routing number checks out.' : '9 digits, bottom left of a cheque.'}
              onChange={(v) => setRouting(digitsOnly(v))}
            />
            <TextField id="vault-account" label="Account number" className="input input-mono" inputMode="numeric" value={account} maxLength={17} error={accountError} onChange={(v) => setAccount(digitsOnly(v))} />
            <fieldset>
              <legend>Account type</legend>
              <div className="segmented" role="radiogroup" aria-label="Account type">
                {(['checking', 'savings'] as const).map((t) => (
                  <button key={t} type="button" role="radio" aria-checked={accountType === t} className="segment" onClick={() => setAccountType(t)}>
                    {t === 'checking' ? 'Checking' : 'Savings'}
                  </button>
                ))}
              </div>
            </fieldset>
            <label className="switch">
              <input type="checkbox" checked={isCompany} onChange={(e) => setIsCompany(e.target.checked)} />
              <span className="switch-track" aria-hidden="true" />
              Business account
            </label>
          </>
        )}
      </div>
      <ErrorNote text={error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy || reading}>
          {busy ? 'Saving…' : kind === 'card' ? 'Save card' : 'Save bank account'}
        </button>
        {kind === 'card' && terminalReady && (
          <button type="button" className="btn btn-lg" disabled={busy || reading} onClick={() => void readOnTerminal()}>
            {reading ? 'Insert, tap or swipe the card on the terminal…' : 'Read the card on the terminal'}
          </button>
        )}
      </div>
    </form>
  );
}

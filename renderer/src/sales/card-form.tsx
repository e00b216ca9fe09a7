import { forwardRef, useEffect, useImperativeHandle, useRef, useState, type ClipboardEvent, type FormEvent, type InputHTMLAttributes, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import type { KeyedCard } from '../../../shared/ipc/contract';
import {
  BRAND_LABELS,
  brandFromPrefix,
  CARD_MESSAGES,
  cardFromText,
  cardNumberError,
  cvvError,
  digitsOnly,
  expiryError,
  expiryMMYY,
  formatExpiryInput,
  groupCardNumber,
  maskedCardNumber,
  maxLength,
  zipError,
  type WholeCard,
} from './card-entry';
import { NO_SWIPE, swipeKey } from './reader-keystrokes';
import { cvvLength } from '../../../shared/payments/card-brand';

export interface CardFormHandle {
  focusNumber(): void;
}

interface CardFormProps {
  disabled: boolean;
  /** Why the charge button is disabled, shown under it (e.g. "Enter an amount first."). */
  blockedReason: string | null;
  chargeLabel: string;
  /** Shown on the button while charging (or while the outcome of a lost answer is being checked). */
  chargingLabel?: string;
  charging: boolean;
  /** Messages from the core, keyed `card.number`, `card.expiry`… */
  serverErrors: Record<string, string[]>;
  /** Changing this clears every field (after each finished sale). */
  resetToken: number;
  onCharge(card: KeyedCard): void;
  /** The id of a heading the container already shows for this form; without it the form shows its own "Card". */
  labelledBy?: string;
}

type Field = 'number' | 'expiry' | 'cvv' | 'zip';

interface CardFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onFocus' | 'onBlur'> {
  field: Field;
  label: ReactNode;
  error: string | null;
  inputRef: Ref<HTMLInputElement>;
  wrapperClass?: string;
  onFocusField(field: Field): void;
  onBlurField(field: Field): void;
}

/** One labelled card input with its message; the message is tied to the input for screen readers. */
function CardField({ field, label, error, inputRef, wrapperClass, onFocusField, onBlurField, className, ...input }: CardFieldProps) {
  const id = `card-${field}`;
  return (
    <div className={wrapperClass ? `field ${wrapperClass}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input
        ref={inputRef}
        id={id}
        className={className ?? 'input input-mono'}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onFocus={() => onFocusField(field)}
        onBlur={() => onBlurField(field)}
        {...input}
      />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Keyed card entry. Validated as typed; the number shows as "•••• 1111" once the
 * field loses focus; everything is cleared after the sale. The card lives only in
 * this component's state until it is handed to the core.
 *
 * A card that comes in one go — a paste, a keyboard-style reader's swipe, a digit typed
 * into a full number field — replaces the card there (its expiry, security code and ZIP
 * with it), so the card charged is always the one the field shows.
 */
export const CardForm = forwardRef<CardFormHandle, CardFormProps>(function CardForm(
  { disabled, blockedReason, chargeLabel, chargingLabel, charging, serverErrors, resetToken, onCharge, labelledBy },
  ref,
) {
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvv, setCvv] = useState('');
  const [zip, setZip] = useState('');
  const [focused, setFocused] = useState<Field | null>(null);
  const [touched, setTouched] = useState<Record<Field, boolean>>({ number: false, expiry: false, cvv: false, zip: false });
  const [submitted, setSubmitted] = useState(false);
  /** A swipe the reader typed but that holds no card. */
  const [unreadable, setUnreadable] = useState(false);
  /** A swipe is being typed by the reader: its keys go nowhere until it ends (Esc stops it). */
  const [reading, setReading] = useState(false);
  const swipe = useRef(NO_SWIPE);
  const numberRef = useRef<HTMLInputElement>(null);
  const refs = { number: numberRef, expiry: useRef<HTMLInputElement>(null), cvv: useRef<HTMLInputElement>(null), zip: useRef<HTMLInputElement>(null) };

  useImperativeHandle(ref, () => ({ focusNumber: () => numberRef.current?.focus() }));

  useEffect(() => {
    setNumber('');
    setExpiry('');
    setCvv('');
    setZip('');
    setTouched({ number: false, expiry: false, cvv: false, zip: false });
    setSubmitted(false);
    setUnreadable(false);
    setReading(false);
    swipe.current = NO_SWIPE;
  }, [resetToken]);

  const brand = brandFromPrefix(number);
  const final = (f: Field) => submitted || (touched[f] && focused !== f);
  const errors: Record<Field, string | null> = {
    number: (unreadable ? CARD_MESSAGES.unreadable : null) ?? cardNumberError(number, final('number')) ?? serverErrors['card.number']?.[0] ?? null,
    expiry: expiryError(expiry, final('expiry')) ?? serverErrors['card.expiry']?.[0] ?? null,
    cvv: cvvError(cvv, brand, final('cvv')) ?? serverErrors['card.cvv']?.[0] ?? null,
    zip: zipError(zip, final('zip')) ?? serverErrors['card.zip']?.[0] ?? null,
  };

  /** Puts a whole card in place of the one there; null (an unreadable swipe) leaves no card at all. */
  const replaceCard = (card: WholeCard | null) => {
    const replaced = card === null || (number !== '' && card.number !== number);
    setUnreadable(card === null);
    setNumber(card?.number ?? '');
    if (card?.expiry) setExpiry(card.expiry);
    else if (replaced) setExpiry('');
    if (replaced || card?.expiry) {
      setCvv('');
      setZip('');
    }
    setTouched({ number: false, expiry: false, cvv: false, zip: false });
    setSubmitted(false);
  };

  /** A keyboard-style reader's swipe, in whichever card field has the focus (reader-keystrokes.ts). */
  const readerKey = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.ctrlKey || e.metaKey || e.altKey || disabled || charging) return;
    const step = swipeKey(swipe.current, e.key);
    swipe.current = step.next;
    setReading(step.next.buffer !== null);
    if (step.swallow) e.preventDefault();
    if (step.track === null) return;
    const card = cardFromText(step.track);
    replaceCard(card);
    // Next comes what a swipe does not carry: the security code (or the number again when unreadable).
    (card ? refs.cvv : numberRef).current?.focus();
  };

  /** A digit typed into a full number field starts a new card instead of being dropped. */
  const numberKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const el = e.currentTarget;
    if (!/^\d$/.test(e.key) || e.ctrlKey || e.metaKey || e.defaultPrevented || number.length < maxLength(brand) || el.selectionStart !== el.selectionEnd) return;
    e.preventDefault();
    replaceCard({ number: e.key, expiry: null });
  };

  const pasteNumber = (e: ClipboardEvent<HTMLInputElement>) => {
    const text = e.clipboardData.getData('text');
    if (!/\d/.test(text)) return;
    e.preventDefault();
    replaceCard(cardFromText(text));
  };

  const blur = (f: Field) => {
    setFocused(null);
    // Leaving a field the form emptied itself (after a charge, while the outcome is checked) is not a missing entry.
    if (disabled || charging) return;
    setTouched((t) => ({ ...t, [f]: true }));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (disabled || charging || blockedReason) return;
    setSubmitted(true);
    const finalErrors: Record<Field, string | null> = {
      number: cardNumberError(number, true),
      expiry: expiryError(expiry, true),
      cvv: cvvError(cvv, brand, true),
      zip: zipError(zip, true),
    };
    const firstBad = (Object.keys(finalErrors) as Field[]).find((f) => finalErrors[f]);
    if (firstBad) {
      refs[firstBad].current?.focus();
      return;
    }
    onCharge({ number, expiry: expiryMMYY(expiry), cvv, zip: zip.trim() });
  };

  const numberValue = focused === 'number' || cardNumberError(number, true) ? groupCardNumber(number) : maskedCardNumber(number);

  return (
    <form className="card-form" onSubmit={submit} onKeyDownCapture={readerKey} noValidate aria-labelledby={labelledBy ?? 'card-title'} autoComplete="off">
      {!labelledBy && (
        <h2 id="card-title" className="section-title">
          Card
        </h2>
      )}
      <div className="card-grid">
        <CardField
          field="number"
          wrapperClass="field-number"
          label={
            <>
              Card number
              {number.length > 0 && (
                <span className={`brand-badge brand-${brand}`} data-testid="card-brand">
                  {BRAND_LABELS[brand]}
                </span>
              )}
            </>
          }
          inputRef={numberRef}
          error={errors.number}
          inputMode="numeric"
          spellCheck={false}
          placeholder="1234 5678 9012 3456"
          value={numberValue}
          disabled={disabled}
          onFocusField={setFocused}
          onBlurField={blur}
          onKeyDown={numberKey}
          onPaste={pasteNumber}
          onChange={(e) => {
            setUnreadable(false);
            setNumber(digitsOnly(e.target.value).slice(0, maxLength(brandFromPrefix(digitsOnly(e.target.value)))));
          }}
        />
        <CardField
          field="expiry"
          label="Expiry"
          inputRef={refs.expiry}
          error={errors.expiry}
          inputMode="numeric"
          placeholder="MM/YY"
          value={expiry}
          disabled={disabled}
          onFocusField={setFocused}
          onBlurField={blur}
          onChange={(e) => setExpiry(formatExpiryInput(e.target.value, expiry))}
        />
        <CardField
          field="cvv"
          label="Security code"
          className="input input-mono input-secret"
          inputRef={refs.cvv}
          error={errors.cvv}
          inputMode="numeric"
          placeholder={cvvLength(brand) === 4 ? '4 digits' : '3 digits'}
          value={cvv}
          disabled={disabled}
          onFocusField={setFocused}
          onBlurField={blur}
          onChange={(e) => setCvv(digitsOnly(e.target.value).slice(0, 4))}
        />
        <CardField
          field="zip"
          label="Billing ZIP"
          inputRef={refs.zip}
          error={errors.zip}
          placeholder="12345"
          maxLength={10}
          value={zip}
          disabled={disabled}
          onFocusField={setFocused}
          onBlurField={blur}
          onChange={(e) => setZip(e.target.value.replace(/[^A-Za-z0-9 -]/g, ''))}
        />
      </div>
      {reading && (
        <p className="muted charge-hint" role="status" data-testid="card-reading">
          Reading the card… (Esc stops)
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-xl btn-block" disabled={disabled || charging || blockedReason !== null} aria-describedby={blockedReason ? 'charge-blocked' : undefined}>
        {charging ? (chargingLabel ?? 'Charging…') : chargeLabel}
      </button>
      {blockedReason && (
        <p id="charge-blocked" className="muted charge-hint">
          {blockedReason}
        </p>
      )}
    </form>
  );
});

/**
 * Store settings (managers): receipt header, sales tax, tips, amount guards and the
 * idle lock. Messages appear beside each field from the same schema the core checks
 * with, as soon as a field is changed; Save is refused by the core for anyone but a
 * manager anyway.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { fromForm, toForm, formFieldOf, type SettingsForm, type SettingsFormErrors } from './settings-form';
import { useSettingsStore } from './settings-store';
import { TIP_BASES, type TipBase } from '../../../shared/payments/tip-suggestions';
import { useFocusFirstError } from '../ui/focus-first-error';

/** The words for each tip base (the choices themselves are the settings schema's). */
const TIP_BASE_LABELS: Record<TipBase, string> = { 'before-tax': 'The amount before tax', 'after-tax': 'The amount with tax' };

export const SETTINGS_MESSAGES = {
  saved: 'Saved. Every counter window uses the new settings now.',
  fix: 'Some settings need a fix before they can be saved; see the messages in red.',
  /** The one rule for tip percents (sales.ts loadConfig; the terminal's are set on Devices). */
  tipsWhere: 'These three are offered on the sale screen. A payment terminal asks with its own three percents (set on Devices), on the terminal only.',
  smartTipsWhere: 'On the sale screen and on the terminal: the three amounts instead of the percents while the amount tips are taken of is below the threshold.',
} as const;

type TextKey = { [K in keyof SettingsForm]: SettingsForm[K] extends string ? K : never }[keyof SettingsForm];

export function SettingsScreen() {
  const { settings, error: loadError, load, save } = useSettingsStore();
  const [form, setForm] = useState<SettingsForm | null>(settings ? toForm(settings) : null);
  const [touched, setTouched] = useState<Set<keyof SettingsForm>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<SettingsFormErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  /** Called by a Save that found errors: the first field in red gets the focus (and scrolls into view) once drawn. */
  const showFirstError = useFocusFirstError(formRef);

  useEffect(() => {
    if (!settings) void load();
  }, [settings, load]);
  // Follow the saved settings (first load, or a manager saving in another window) while nothing here is being edited.
  const editing = touched.size > 0 || submitted;
  useEffect(() => {
    if (settings && !editing) setForm(toForm(settings));
  }, [settings, editing]);

  if (!form) {
    return (
      <section className="screen panel" aria-labelledby="settings-title">
        <h1 id="settings-title" tabIndex={-1} data-screen-focus>
          Store settings
        </h1>
        {loadError ? <p className="notice notice-error" role="alert">{loadError}</p> : <p className="muted">Loading the settings…</p>}
      </section>
    );
  }

  const { errors } = fromForm(form);
  const shown = (k: keyof SettingsForm) => (submitted || touched.has(k) ? (serverErrors[k] ?? errors[k]) : serverErrors[k]);
  const change = <K extends keyof SettingsForm>(k: K, v: SettingsForm[K]) => {
    setForm({ ...form, [k]: v });
    setTouched(new Set(touched).add(k));
    setServerErrors({ ...serverErrors, [k]: undefined });
    setSaved(false);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setSaved(false);
    const { settings: next } = fromForm(form);
    if (!next) {
      showFirstError();
      return setMessage(SETTINGS_MESSAGES.fix);
    }
    setBusy(true);
    const r = await save(next);
    setBusy(false);
    if (r) {
      const fieldErrors: SettingsFormErrors = {};
      for (const [path, msgs] of Object.entries(r.fields)) {
        const f = formFieldOf(path);
        if (f && msgs[0]) fieldErrors[f] = msgs[0];
      }
      setServerErrors(fieldErrors);
      showFirstError();
      return setMessage(r.message);
    }
    setMessage(null);
    setSaved(true);
    setTouched(new Set());
    setSubmitted(false);
    setForm(toForm(next));
  };

  const text = (k: TextKey, label: string, opts: { mono?: boolean; inputMode?: 'numeric' | 'decimal' | 'tel'; hint?: string; suffix?: string; wide?: boolean; full?: boolean } = {}): ReactNode => {
    const err = shown(k);
    const id = `set-${k}`;
    const describedBy = [opts.hint ? `${id}-hint` : '', err ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
    return (
      <div className={`field${opts.wide ? ' settings-wide' : ''}${opts.full ? ' settings-full' : ''}`}>
        <label htmlFor={id}>{label}</label>
        <div className="input-row">
          <input
            id={id}
            className={`input${opts.mono ? ' input-mono' : ''}`}
            value={form[k]}
            inputMode={opts.inputMode}
            spellCheck={false}
            aria-invalid={err ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => change(k, e.target.value)}
          />
          {opts.suffix && <span className="settings-suffix" aria-hidden="true">{opts.suffix}</span>}
        </div>
        {opts.hint && (
          <p id={`${id}-hint`} className="muted settings-hint">
            {opts.hint}
          </p>
        )}
        {err && (
          <p id={`${id}-error`} className="field-error">
            {err}
          </p>
        )}
      </div>
    );
  };
  const toggle = (k: 'taxOnByDefault' | 'tipsEnabled' | 'smartTipsEnabled' | 'offlineAllowKeyed', label: string) => (
    <label className="switch">
      <input type="checkbox" role="switch" checked={form[k]} onChange={(e) => change(k, e.target.checked)} />
      <span className="switch-track" aria-hidden="true" />
      {label}
    </label>
  );

  return (
    <form ref={formRef} className="screen panel settings-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="settings-title">
      <h1 id="settings-title" tabIndex={-1} data-screen-focus>
        Store settings
      </h1>
      <fieldset className="settings-group">
        <legend className="section-title">On the receipt</legend>
        <div className="settings-grid">
          {text('storeName', 'Store name', { wide: true, hint: 'Printed at the top of every receipt.' })}
          {text('storePhone', 'Phone', { inputMode: 'tel' })}
          {text('storeAddress', 'Address', { full: true, hint: 'Street and city, printed under the name.' })}
        </div>
      </fieldset>
      <fieldset className="settings-group">
        <legend className="section-title">Sales tax and tips</legend>
        <div className="settings-grid">
          {text('taxRatePercent', 'Sales tax rate', { inputMode: 'decimal', suffix: '%', hint: 'Up to two decimals, like 8.25. 0 for no tax.' })}
          <div className="field settings-switches">
            {toggle('taxOnByDefault', 'Tax is on when a sale starts')}
            {toggle('tipsEnabled', 'Offer tips on the sale screen')}
          </div>
          {text('tip1', 'First tip', { inputMode: 'numeric', suffix: '%' })}
          {text('tip2', 'Second tip', { inputMode: 'numeric', suffix: '%' })}
          {text('tip3', 'Third tip', { inputMode: 'numeric', suffix: '%' })}
          <p className="muted settings-hint settings-full">{SETTINGS_MESSAGES.tipsWhere}</p>
          <fieldset className="field settings-full settings-choice">
            <legend>Tips are taken of</legend>
            <div className="segmented">
              {TIP_BASES.map((b) => (
                <label key={b} className="segment">
                  <input type="radio" name="tipBase" value={b} checked={form.tipBase === b} onChange={() => change('tipBase', b)} />
                  <span className="segment-main">{TIP_BASE_LABELS[b]}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="field settings-switches settings-full">{toggle('smartTipsEnabled', 'Smart tips: flat amounts on small sales')}</div>
          {text('smartTipsThreshold', 'Flat amounts below ($)', { inputMode: 'decimal' })}
          {text('smartTip1', 'First flat tip ($)', { inputMode: 'decimal' })}
          {text('smartTip2', 'Second flat tip ($)', { inputMode: 'decimal' })}
          {text('smartTip3', 'Third flat tip ($)', { inputMode: 'decimal' })}
          <p className="muted settings-hint settings-full">{SETTINGS_MESSAGES.smartTipsWhere}</p>
        </div>
      </fieldset>
      <fieldset className="settings-group">
        <legend className="section-title">Guards and the idle lock</legend>
        <div className="settings-grid">
          {text('confirmAbove', 'Ask to confirm sales above ($)', { inputMode: 'decimal', hint: 'The amount is shown large and asked again.' })}
          {text('hardCap', 'Refuse sales above ($)', { inputMode: 'decimal' })}
          {text('tipConfirmPercent', 'Ask to confirm tips above', { inputMode: 'numeric', suffix: '%', hint: 'Share of the sale amount.' })}
          {text('idleLockMinutes', 'Lock the counter after', { inputMode: 'numeric', suffix: 'min', hint: 'Minutes without use before the sign-in screen returns.' })}
          {text('drawerOpenAlertSeconds', 'Flag a drawer left open after', { inputMode: 'numeric', suffix: 's', hint: 'Seconds; the status bar warns and the audit log records it.' })}
        </div>
      </fieldset>
      <fieldset className="settings-group">
        <legend className="section-title">Offline sales</legend>
        <div className="settings-grid">
          <div className="field settings-switches">
            {toggle('offlineAllowKeyed', 'Take keyed cards offline')}
            <span className="muted field-hint">Card sales on the terminal are always taken offline; keyed cards only when this is on.</span>
          </div>
          {text('offlinePaymentCap', 'Largest sale taken offline ($)', { inputMode: 'decimal', hint: 'While the gateway cannot be reached.' })}
          {text('offlineTotalCap', 'Most waiting in total ($)', { inputMode: 'decimal', hint: 'All offline sales not yet sent.' })}
          {text('offlineApprovalAbove', 'Need a manager above ($)', { inputMode: 'decimal', hint: '0.00 for never.' })}
          {text('offlineExpiryHours', 'Expire unsent sales after', { inputMode: 'numeric', suffix: 'h', hint: 'Hours; an expired sale is never charged.' })}
          {text('offlineAlertHours', 'Alert before expiry', { inputMode: 'numeric', suffix: 'h', hint: 'Hours before a sale expires.' })}
        </div>
      </fieldset>
      {message && (
        <p className="notice notice-error" role="alert">
          {message}
        </p>
      )}
      <p role="status" className="ok-text">
        {saved ? SETTINGS_MESSAGES.saved : ''}
      </p>
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-secondary btn-lg"
          onClick={() => {
            if (settings) setForm(toForm(settings));
            setTouched(new Set());
            setSubmitted(false);
            setServerErrors({});
            setMessage(null);
          }}
        >
          Undo changes
        </button>
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </button>
      </div>
    </form>
  );
}

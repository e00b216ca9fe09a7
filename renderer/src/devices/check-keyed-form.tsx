/**
 * A check keyed from the numbers printed on it, when the scanner cannot read its MICR line
 * (the scanner's message says "key the numbers"). The routing number's checksum is checked
 * as it is typed; Use these numbers hands them to the check payment as a scan would.
 */
import { useEffect, useState } from 'react';
import { accountError, checkNumberError, routingError } from '../../../shared/payments/check-entry';
import type { ScannedCheck } from '../../../shared/ipc/contract';
import { digitsOnly } from '../sales/card-entry';
import { TextField } from '../ui/text-field';

type Field = 'routing' | 'account' | 'checkNumber';
const FIELDS: Field[] = ['routing', 'account', 'checkNumber'];
const IDS: Record<Field, string> = { routing: 'check-routing', account: 'check-account', checkNumber: 'check-number' };

interface Props {
  onUse(numbers: Omit<ScannedCheck, 'micr'>): void;
  onCancel(): void;
}

export function CheckKeyedForm({ onUse, onCancel }: Props) {
  const [v, setV] = useState<Record<Field, string>>({ routing: '', account: '', checkNumber: '' });
  const [left, setLeft] = useState<Record<Field, boolean>>({ routing: false, account: false, checkNumber: false });
  const [submitted, setSubmitted] = useState(false);
  useEffect(() => document.getElementById(IDS.routing)?.focus(), []);

  const errorsOf = (final: (f: Field) => boolean): Record<Field, string | null> => ({
    routing: routingError(v.routing, final('routing')),
    account: accountError(v.account, final('account')),
    checkNumber: checkNumberError(v.checkNumber, final('checkNumber')),
  });
  const errors = errorsOf((f) => submitted || left[f]);

  const field = (f: Field, label: string, max: number) => (
    <TextField
      id={IDS[f]}
      label={label}
      className="input input-mono"
      inputMode="numeric"
      maxLength={max}
      value={v[f]}
      error={errors[f]}
      onBlur={() => setLeft((l) => ({ ...l, [f]: true }))}
      onChange={(text) => setV((o) => ({ ...o, [f]: digitsOnly(text).slice(0, max) }))}
    />
  );

  return (
    <form
      className="check-keyed"
      aria-label="The numbers printed on the check"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setSubmitted(true);
        const final = errorsOf(() => true);
        const bad = FIELDS.find((f) => final[f]);
        if (bad) {
          document.getElementById(IDS[bad])?.focus();
          return;
        }
        onUse({ routing: v.routing, account: v.account, checkNumber: v.checkNumber.replace(/^0+(?=\d)/, '') });
      }}
    >
      <div className="check-keyed-grid">
        {field('routing', 'Routing number', 9)}
        {field('account', 'Account number', 17)}
        {field('checkNumber', 'Check number', 15)}
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-lg">
          Use these numbers
        </button>
        <button type="button" className="btn btn-quiet btn-lg" onClick={onCancel}>
          Scan instead
        </button>
      </div>
    </form>
  );
}

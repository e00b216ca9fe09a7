/**
 * Close the store's day (issue 24): the manager types what each register's drawer holds (left
 * empty: that register closes uncounted), and every register closes its own Z with its count —
 * the ones connected at once, the others as soon as they are back. It cannot be undone, so it is
 * asked as a question, Cancel first, as this register's own Z is.
 */
import { useState } from 'react';
import type { StoreReport } from '../../../shared/ipc/contract';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { TextField } from '../ui/text-field';
import { money, parseTypedAmount } from '../ui/money-format';
import { useStoreReportStore } from './store-report-store';

const COUNT_ERROR = 'Type the cash counted as an amount, like 250.00, or leave it empty.';

export function StoreCloseDialog({ registers, onDone }: { registers: StoreReport['registers']; onDone(): void }) {
  const closeDay = useStoreReportStore((s) => s.closeDay);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [shownErrors, setShownErrors] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const cents = (id: string) => {
    const t = (typed[id] ?? '').trim();
    return t ? parseTypedAmount(t) : undefined;
  };
  const bad = registers.filter((r) => cents(r.registerId) === null);
  return (
    <ConfirmDialog
      title="Close the store's day?"
      confirmLabel="Close the store's day"
      busy={busy}
      error={error}
      onCancel={onDone}
      onConfirm={async () => {
        setShownErrors(true);
        if (bad.length > 0) {
          setError(`Check the count for ${bad.map((r) => r.name).join(', ')}.`);
          return;
        }
        setBusy(true);
        const counts = registers.flatMap((r) => {
          const c = cents(r.registerId);
          return c === undefined || c === null ? [] : [{ registerId: r.registerId, countedCents: c }];
        });
        const e = await closeDay({ counts });
        setBusy(false);
        if (e) setError(e.message);
        else onDone();
      }}
    >
      <p>Every register closes its day with a Z report: the ones connected now at once, the others as soon as they are back. It cannot be undone.</p>
      <p className="muted">Type what each drawer holds; a register left empty closes uncounted.</p>
      <div className="count-fields store-count-fields">
        {registers.map((r) => (
          <TextField
            key={r.registerId}
            id={`store-count-${r.registerId}`}
            label={`Cash counted: ${r.name}`}
            inputMode="decimal"
            placeholder="0.00"
            value={typed[r.registerId] ?? ''}
            hint={`Cash taken ${money(r.cashCents)}`}
            error={shownErrors && cents(r.registerId) === null ? COUNT_ERROR : null}
            onChange={(v) => setTyped((t) => ({ ...t, [r.registerId]: v }))}
          />
        ))}
      </div>
    </ConfirmDialog>
  );
}

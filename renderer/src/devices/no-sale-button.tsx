/**
 * "No sale" (issue 23, point 2): the cash drawer opened with no sale, through the receipt
 * printer's kick port. A manager's act; a cashier gets the manager's approval dialog (their
 * name and PIN), as for other approvals. The core records each in the audit log ("No sale
 * (drawer opened)"). Shown only when a receipt printer is registered: there is no drawer else.
 */
import { useState } from 'react';
import type { Approval } from '../../../shared/ipc/contract';
import { ManagerApprovalDialog } from '../auth/manager-approval-dialog';
import { useSessionStore } from '../auth/session-store';
import { ringup } from '../bridge/bridge';
import { usePrinterStatusStore } from './printer-status-store';

export const NO_SALE_SENTENCE = 'Opening the cash drawer with no sale is recorded in the audit log. A manager approves it with their PIN.';

export function NoSaleButton() {
  const role = useSessionStore((s) => s.session?.user.role);
  const printer = usePrinterStatusStore((s) => s.status?.state ?? 'none');
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  if (printer === 'none' || (role !== 'manager' && role !== 'cashier')) return null;

  const open = async (approval?: Approval) => {
    setBusy(true);
    setError(null);
    const r = await ringup.printersNoSale(approval ? { approval } : {});
    setBusy(false);
    if (r.ok) {
      setAsking(false);
      return setNote({ ok: true, text: r.value.approvedBy ? `Drawer opened (approved by ${r.value.approvedBy}).` : 'Drawer opened.' });
    }
    if (r.error.code === 'approval_needed') return setAsking(true);
    if (asking) return setError(r.error.message);
    setNote({ ok: false, text: r.error.message });
  };

  return (
    <>
      <button type="button" className="btn btn-secondary" onClick={() => (role === 'manager' ? void open() : setAsking(true))} data-testid="no-sale">
        No sale
      </button>
      {note && (
        <span className={`notice ${note.ok ? 'notice-ok' : 'notice-error'} notice-inline`} role={note.ok ? 'status' : 'alert'} data-testid="no-sale-note">
          {note.text}
        </span>
      )}
      {asking && (
        <ManagerApprovalDialog
          sentence={NO_SALE_SENTENCE}
          confirmLabel="Approve and open the drawer"
          busy={busy}
          error={error}
          onApprove={(a) => void open(a)}
          onCancel={() => {
            setAsking(false);
            setError(null);
          }}
        />
      )}
    </>
  );
}

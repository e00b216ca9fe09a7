/**
 * "Check the audit log" (managers, System screen): the core walks the log's hash chain
 * (electron/core/audit/audit-chain.ts) and answers one sentence — every record checks out, or
 * the first one changed or removed in the file after it was written.
 */
import { useEffect, useRef, useState } from 'react';
import { ringup } from '../bridge/bridge';
import { OutcomeNote, type Outcome } from '../sales/outcome-note';

export function AuditCheckPanel() {
  const [note, setNote] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const panel = useRef<HTMLElement>(null);
  // The panel sits at the foot of the System screen: with its answer it is brought into view, not left below the fold.
  useEffect(() => {
    if (note) panel.current?.scrollIntoView({ block: 'nearest' });
  }, [note]);

  const check = async () => {
    setBusy(true);
    setNote(null);
    const r = await ringup.auditVerify();
    setBusy(false);
    setNote(r.ok ? { ok: r.value.ok, text: r.value.sentence } : { ok: false, text: r.error.message });
  };

  return (
    <section ref={panel} className="panel audit-check" aria-labelledby="audit-check-title">
      <h2 id="audit-check-title" className="section-title">
        Audit log
      </h2>
      <p className="muted">Each record carries a fingerprint of the one before it, so a record changed or removed in the file since it was written shows up here.</p>
      <div className="form-actions">
        {/* Not `disabled` while it checks: a disabled button drops the keyboard focus to the page. */}
        <button type="button" className="btn btn-secondary" onClick={() => void (busy || check())} aria-disabled={busy}>
          {busy ? 'Checking…' : 'Check the audit log'}
        </button>
      </div>
      <div className="audit-check-answer">
        <OutcomeNote note={note} />
      </div>
    </section>
  );
}

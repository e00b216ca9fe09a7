import { useCallback, useRef, useState } from 'react';
import type { Result } from '../../../shared/result';
import type { Approval } from '../../../shared/ipc/contract';

/**
 * A step the core may refuse for want of a manager (`approval_needed`: voiding a card payment
 * of a paid sale is a return, issue 20 point 4), sent again with the manager's PIN typed in the
 * ManagerApprovalDialog. `asking` opens that dialog; a wrong or locked PIN keeps it open with
 * the core's sentence as `error`; any other refusal closes it and shows the sentence where the
 * step was asked. The callbacks are stable (the dialog moves the focus when they change), so
 * `send` and `onDone` are read from refs.
 */
export function useApprovalRetry<T>(send: (approval?: Approval) => Promise<Result<T>>, onDone: (value: T) => void) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sendRef = useRef(send);
  const doneRef = useRef(onDone);
  sendRef.current = send;
  doneRef.current = onDone;

  const run = useCallback(async (approval?: Approval) => {
    setBusy(true);
    setError(null);
    const r = await sendRef.current(approval);
    setBusy(false);
    if (r.ok) {
      setAsking(false);
      doneRef.current(r.value);
      return;
    }
    const code = r.error.code;
    if (code === 'approval_needed') {
      // The dialog says what is asked in its own words; nothing went wrong yet.
      setAsking(true);
      return;
    }
    if (approval && (code === 'approval_refused' || code === 'locked')) {
      setAsking(true);
      setError(r.error.message);
      return;
    }
    setAsking(false);
    setError(r.error.message);
  }, []);
  const approve = useCallback((a: Approval) => void run(a), [run]);
  const cancel = useCallback(() => {
    setAsking(false);
    setError(null);
  }, []);
  return { asking, busy, error, run, approve, cancel };
}

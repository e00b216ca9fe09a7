/** Send device terms to a terminal and see the cardholder's answer and signature. */
import { useState } from 'react';
import { ringup } from '../bridge/bridge';
import type { TermsResult } from '../../../shared/ipc/contract';
import { ErrorNote } from '../sales/outcome-note';

export function DeviceTerms({ terminalId }: { terminalId: string }) {
  const [text, setText] = useState('I agree to the terms of this rental.');
  const [sig, setSig] = useState(true);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TermsResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const send = async () => {
    setBusy(true);
    setError(null);
    setResult(null);
    const r = await ringup.devicesTerminalTerms({ terminalId, text, requireSignature: sig });
    setBusy(false);
    if (r.ok) setResult(r.value);
    else setError(r.error.message);
  };

  return (
    <fieldset className="device-fieldset">
      <legend>Device terms</legend>
      <div className="field">
        <label htmlFor="terms-text">Terms shown on the terminal</label>
        <textarea id="terms-text" className="input textarea" rows={3} maxLength={4096} value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <label className="switch">
        <input type="checkbox" checked={sig} onChange={(e) => setSig(e.target.checked)} />
        <span className="switch-track" aria-hidden="true" />
        Ask for a signature
      </label>
      <div className="form-actions">
        <button type="button" className="btn btn-secondary btn-lg" disabled={busy || !text.trim()} onClick={() => void send()} data-testid="terms-send">
          {busy ? 'Waiting for the customer…' : 'Show on the terminal'}
        </button>
      </div>
      <ErrorNote text={error} />
      {result && (
        <div className="terms-result" role="status" data-testid="terms-result">
          <p className={`notice ${result.accepted ? 'notice-ok' : 'notice-error'}`}>{result.accepted ? 'The customer accepted the terms.' : 'The customer declined the terms.'}</p>
          {result.signatureDataUrl && <img className="signature" src={result.signatureDataUrl} alt="The customer's signature" data-testid="terms-signature" />}
        </div>
      )}
    </fieldset>
  );
}

import { useEffect, useRef, useState } from 'react';
import { ErrorNote } from '../sales/outcome-note';

interface PinPadProps {
  label: string;
  busy: boolean;
  error: string | null;
  onSubmit(pin: string): void;
  onCancel(): void;
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'back', '0', 'ok'] as const;

/** PIN entry by touch or keyboard (digits, Backspace, Enter, Esc). The PIN is shown as dots only. */
export function PinPad({ label, busy, error, onSubmit, onCancel }: PinPadProps) {
  const [pin, setPin] = useState('');
  const pinRef = useRef(pin);
  useEffect(() => {
    pinRef.current = pin;
  }, [pin]);

  useEffect(() => {
    if (error) setPin('');
  }, [error]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (/^\d$/.test(e.key)) {
        e.preventDefault();
        setPin((p) => (p.length < 8 ? p + e.key : p));
      } else if (e.key === 'Backspace') {
        e.preventDefault();
        setPin((p) => p.slice(0, -1));
      } else if (e.key === 'Enter') {
        e.preventDefault();
        if (pinRef.current.length >= 4 && !busy) onSubmit(pinRef.current);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        onCancel();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, onSubmit, onCancel]);

  const press = (k: (typeof KEYS)[number]) => {
    if (k === 'back') setPin((p) => p.slice(0, -1));
    else if (k === 'ok') {
      if (pin.length >= 4) onSubmit(pin);
    } else setPin((p) => (p.length < 8 ? p + k : p));
  };

  return (
    <div className="pin-pad">
      <div className="pin-dots" role="status" aria-label={`${label}: ${pin.length} digits entered`}>
        {Array.from({ length: Math.max(4, pin.length) }, (_, i) => (
          <span key={i} className={`pin-dot${i < pin.length ? ' pin-dot-on' : ''}`} />
        ))}
      </div>
      <ErrorNote text={error} />
      <div className="keypad keypad-pin">
        {KEYS.map((k) => (
          <button
            key={k}
            type="button"
            className={`key${k === 'ok' ? ' key-ok' : ''}`}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => press(k)}
            disabled={busy || (k === 'ok' && pin.length < 4)}
            aria-label={k === 'back' ? 'Delete last digit' : undefined}
          >
            {k === 'back' ? '⌫' : k === 'ok' ? (busy ? '…' : 'Sign in') : k}
          </button>
        ))}
      </div>
    </div>
  );
}

import type { InputHTMLAttributes } from 'react';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange'> {
  id: string;
  label: string;
  error?: string | null;
  hint?: string;
  onChange(value: string): void;
}

/** A labelled input with its message tied to it for screen readers (the manager forms' one field). */
export function TextField({ id, label, error, hint, onChange, className, ...input }: TextFieldProps) {
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className={className ?? 'input'} autoComplete="off" aria-invalid={error ? true : undefined} aria-describedby={described} onChange={(e) => onChange(e.target.value)} {...input} />
      {hint && !error && (
        <span id={`${id}-hint`} className="muted field-hint">
          {hint}
        </span>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

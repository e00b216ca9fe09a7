/**
 * The parts the catalogue's panels (categories, modifier groups) share: the form's Save/Add and
 * Stop editing buttons, and a row's Edit and Archive/Restore buttons — one look and one wording.
 */
import type { ReactNode } from 'react';
import type { AppError } from '../../../shared/result';

/** Save (editing) or Add (new), and Stop editing while editing. */
export function SaveOrAdd({ editing, noun, onStop }: { editing: boolean; noun: string; onStop: () => void }) {
  return (
    <div className="form-actions">
      <button type="submit" className="btn btn-primary btn-lg">
        {editing ? `Save ${noun}` : `Add ${noun}`}
      </button>
      {editing && (
        <button type="button" className="btn btn-secondary btn-lg" onClick={onStop}>
          Stop editing
        </button>
      )}
    </div>
  );
}

/** A row's name, marked when archived (`lead`: drawn before it, e.g. a colour swatch). */
export function NameCell({ name, archived, lead = null }: { name: string; archived: boolean; lead?: ReactNode }) {
  return (
    <td>
      {lead}
      {name}
      {archived ? ' (archived)' : ''}
    </td>
  );
}

/** A row's Edit and Archive/Restore buttons, named for a screen reader by what they act on. */
export function RowActions({ noun, name, archived, onEdit, onArchive }: { noun: string; name: string; archived: boolean; onEdit: () => void; onArchive: () => void }) {
  return (
    <td>
      <button type="button" className="btn btn-quiet" aria-label={`Edit ${noun} ${name}`} onClick={onEdit}>
        Edit
      </button>
      <button type="button" className="btn btn-quiet" aria-label={`${archived ? 'Restore' : 'Archive'} ${noun} ${name}`} onClick={onArchive}>
        {archived ? 'Restore' : 'Archive'}
      </button>
    </td>
  );
}

/** A refusal's field errors keyed as the panel's form names them (the channel's `fields.` prefix dropped); none when it named no field. */
export function refusalFields(error: AppError): Record<string, string> {
  return Object.fromEntries(Object.entries(error.fields ?? {}).map(([k, v]) => [k.replace(/^fields\./, ''), v[0] ?? error.message]));
}

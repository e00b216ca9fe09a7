/**
 * Modifier groups (managers): a required Size, optional add-ons with a price, each group with
 * the fewest and most choices a counter may make ("Choose 1", "Up to 3"). A group's choices are
 * rows of name and price, added and removed in place; a choice removed, or a group archived, is
 * kept by the core (past lines copied what they were sold with). Which items offer a group is
 * set on the item's form.
 */
import { useState, type FormEvent } from 'react';
import { modifierGroupFieldsSchema, type ModifierGroup } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { ErrorNote, OutcomeNote, type Outcome } from '../sales/outcome-note';
import { money, parseTypedAmount } from '../ui/money-format';
import { TextField } from '../ui/text-field';
import { groupRule } from './category-swatch';
import { NameCell, refusalFields, RowActions, SaveOrAdd } from './catalogue-form-parts';

interface ChoiceDraft {
  id?: string;
  name: string;
  price: string;
}
interface Draft {
  id: string | null;
  name: string;
  min: string;
  max: string;
  options: ChoiceDraft[];
}
const EMPTY: Draft = { id: null, name: '', min: '0', max: '1', options: [{ name: '', price: '0.00' }] };
const cents = (c: number) => money(c).replace(/[$,]/g, '');

export function ModifierGroupsPanel({ groups, onChanged }: { groups: ModifierGroup[]; onChanged(): Promise<void> }) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<Outcome | null>(null);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setNote(null);
    const whole = (s: string) => (/^\d{1,2}$/.test(s.trim()) ? Number(s) : -1);
    const parsed = modifierGroupFieldsSchema.safeParse({
      name: draft.name,
      minChoices: whole(draft.min),
      maxChoices: whole(draft.max),
      options: draft.options.map((o) => ({ ...(o.id ? { id: o.id } : {}), name: o.name, priceCents: parseTypedAmount(o.price || '0') ?? -1 })),
    });
    if (!parsed.success) {
      const errs: Record<string, string> = {};
      for (const i of parsed.error.issues) {
        const key = i.path.join('.');
        errs[key] ??= key.endsWith('priceCents') ? 'Enter a price such as 0.50.' : i.message;
      }
      return setErrors(errs);
    }
    const r = await ringup.catalogueSaveModifierGroup({ ...(draft.id ? { id: draft.id } : {}), fields: parsed.data });
    if (!r.ok) {
      const fields = refusalFields(r.error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setNote({ ok: false, text: r.error.message });
      return;
    }
    setErrors({});
    setDraft(EMPTY);
    setNote({ ok: true, text: `${r.value.name} saved.` });
    await onChanged();
  };
  const archive = async (g: ModifierGroup) => {
    const r = await ringup.catalogueArchiveModifierGroup({ id: g.id, archived: !g.archived });
    setNote(r.ok ? { ok: true, text: r.value.archived ? `${g.name} archived: the counter no longer offers it.` : `${g.name} restored.` } : { ok: false, text: r.error.message });
    await onChanged();
  };
  const setOption = (i: number, patch: Partial<ChoiceDraft>) => setDraft({ ...draft, options: draft.options.map((o, j) => (j === i ? { ...o, ...patch } : o)) });

  return (
    <section className="panel" aria-labelledby="groups-title" data-testid="modifier-groups-panel">
      <h2 id="groups-title" className="section-title">
        Modifier groups
      </h2>
      <form onSubmit={(e) => void save(e)} aria-label={draft.id ? 'Edit modifier group' : 'Add a modifier group'}>
        <div className="catalogue-grid">
          <TextField id="group-name" label="Group name" value={draft.name} maxLength={20} error={errors.name} onChange={(v) => (setDraft({ ...draft, name: v }), setErrors({ ...errors, name: '' }))} />
          <TextField id="group-min" label="Fewest choices (1 = required)" inputMode="numeric" value={draft.min} error={errors.minChoices} onChange={(v) => (setDraft({ ...draft, min: v }), setErrors({ ...errors, minChoices: '' }))} />
          <TextField id="group-max" label="Most choices" inputMode="numeric" value={draft.max} error={errors.maxChoices} onChange={(v) => (setDraft({ ...draft, max: v }), setErrors({ ...errors, maxChoices: '' }))} />
        </div>
        <fieldset className="catalogue-fieldset">
          <legend>Choices and what each adds to the price</legend>
          <div className="sub-rows">
            {draft.options.map((o, i) => (
              <div className="sub-row sub-row-2" key={i}>
                <TextField id={`choice-${i}-name`} label={`Choice ${i + 1}`} value={o.name} maxLength={20} error={errors[`options.${i}.name`]} onChange={(v) => setOption(i, { name: v })} />
                <TextField id={`choice-${i}-price`} label="Adds" inputMode="decimal" value={o.price} error={errors[`options.${i}.priceCents`]} onChange={(v) => setOption(i, { price: v })} />
                <button type="button" className="btn btn-secondary" aria-label={`Remove choice ${o.name || i + 1}`} onClick={() => setDraft({ ...draft, options: draft.options.filter((_, j) => j !== i) })}>
                  Remove
                </button>
              </div>
            ))}
          </div>
          {errors.options && <p className="field-error">{errors.options}</p>}
          <div className="form-actions form-actions-tight">
            <button type="button" className="btn btn-secondary" disabled={draft.options.length >= 20} onClick={() => setDraft({ ...draft, options: [...draft.options, { name: '', price: '0.00' }] })}>
              Add choice
            </button>
          </div>
        </fieldset>
        <SaveOrAdd editing={!!draft.id} noun="group" onStop={() => setDraft(EMPTY)} />
      </form>
      <OutcomeNote note={note?.ok ? note : null} />
      <ErrorNote text={note && !note.ok ? note.text : null} />
      {groups.length === 0 ? (
        <p className="muted">No modifier groups yet.</p>
      ) : (
        <table className="breakdown" data-testid="groups-table">
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">Rule</th>
              <th scope="col">Choices</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={g.id} className={g.archived ? 'muted' : undefined}>
                <NameCell name={g.name} archived={g.archived} />
                <td>{groupRule(g.minChoices, g.maxChoices)}</td>
                <td>{g.options.map((o) => `${o.name}${o.priceCents > 0 ? ` +${money(o.priceCents)}` : ''}`).join(', ')}</td>
                <RowActions
                  noun="group"
                  name={g.name}
                  archived={g.archived}
                  onEdit={() => setDraft({ id: g.id, name: g.name, min: String(g.minChoices), max: String(g.maxChoices), options: g.options.map((o) => ({ id: o.id, name: o.name, price: cents(o.priceCents) })) })}
                  onArchive={() => void archive(g)}
                />
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

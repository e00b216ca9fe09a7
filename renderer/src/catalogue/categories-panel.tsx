/**
 * Categories (managers): the tabs over the counter's item grid, each with a colour from the
 * named set (readable in both themes) and an order. Added and edited in one small form;
 * archived, never deleted (an archived category's items show under "Other" until it is
 * restored). Component state only; the screen reloads the items after a change.
 */
import { useState, type FormEvent } from 'react';
import { CATEGORY_COLOURS, type Category, type CategoryColour } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { ErrorNote, OutcomeNote, type Outcome } from '../sales/outcome-note';
import { TextField } from '../ui/text-field';
import { CategorySwatch } from './category-swatch';
import { NameCell, refusalFields, RowActions, SaveOrAdd } from './catalogue-form-parts';

interface Draft {
  id: string | null;
  name: string;
  colour: CategoryColour;
  order: string;
}
const EMPTY: Draft = { id: null, name: '', colour: 'slate', order: '0' };

export function CategoriesPanel({ categories, onChanged }: { categories: Category[]; onChanged(): Promise<void> }) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<Outcome | null>(null);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setNote(null);
    const order = /^\d{1,3}$/.test(draft.order.trim()) ? Number(draft.order) : null;
    if (order === null) return setErrors({ sortOrder: 'A whole number from 0 to 999.' });
    const r = await ringup.catalogueSaveCategory({ ...(draft.id ? { id: draft.id } : {}), fields: { name: draft.name, colour: draft.colour, sortOrder: order } });
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
  const archive = async (c: Category) => {
    const r = await ringup.catalogueArchiveCategory({ id: c.id, archived: !c.archived });
    setNote(r.ok ? { ok: true, text: r.value.archived ? `${c.name} archived: its items show under Other.` : `${c.name} restored.` } : { ok: false, text: r.error.message });
    await onChanged();
  };

  return (
    <section className="panel" aria-labelledby="categories-title" data-testid="categories-panel">
      <h2 id="categories-title" className="section-title">
        Categories
      </h2>
      <form onSubmit={(e) => void save(e)} aria-label={draft.id ? 'Edit category' : 'Add a category'}>
        <div className="catalogue-grid">
          <TextField id="category-name" label="Category name" value={draft.name} maxLength={20} error={errors.name} onChange={(v) => (setDraft({ ...draft, name: v }), setErrors({ ...errors, name: '' }))} />
          <div className="field">
            <label htmlFor="category-colour">
              Colour <CategorySwatch colour={draft.colour} />
            </label>
            <select id="category-colour" className="input" value={draft.colour} onChange={(e) => setDraft({ ...draft, colour: e.target.value as CategoryColour })}>
              {CATEGORY_COLOURS.map((c) => (
                <option key={c} value={c}>
                  {c[0]!.toUpperCase() + c.slice(1)}
                </option>
              ))}
            </select>
          </div>
          <TextField id="category-order" label="Tab order" inputMode="numeric" value={draft.order} error={errors.sortOrder} onChange={(v) => (setDraft({ ...draft, order: v }), setErrors({ ...errors, sortOrder: '' }))} />
        </div>
        <SaveOrAdd editing={!!draft.id} noun="category" onStop={() => setDraft(EMPTY)} />
      </form>
      <OutcomeNote note={note?.ok ? note : null} />
      <ErrorNote text={note && !note.ok ? note.text : null} />
      {categories.length === 0 ? (
        <p className="muted">No categories yet: the counter shows every item under All.</p>
      ) : (
        <table className="breakdown" data-testid="categories-table">
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col">Colour</th>
              <th scope="col">Order</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {categories.map((c) => (
              <tr key={c.id} className={c.archived ? 'muted' : undefined}>
                <NameCell name={c.name} archived={c.archived} lead={<CategorySwatch colour={c.colour} />} />
                <td>{c.colour}</td>
                <td>{c.sortOrder}</td>
                <RowActions noun="category" name={c.name} archived={c.archived} onEdit={() => setDraft({ id: c.id, name: c.name, colour: c.colour, order: String(c.sortOrder) })} onArchive={() => void archive(c)} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

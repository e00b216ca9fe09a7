/**
 * Categories (`catalogue_categories`): the tabs over the counter's item grid, each in a named
 * colour. Archived, never deleted: an item keeps pointing at its category, and while the
 * category is archived the item is listed without one ("Other" on the counter).
 */
import { randomUUID } from 'node:crypto';
import type { Category, CategoryColour, CategoryFields } from '../../../shared/ipc/catalogue';
import type { PosDatabase } from '../platform/pos-database';

interface CategoryRow {
  id: string;
  name: string;
  colour: string;
  sort_order: number;
  archived: number;
}

const toCategory = (r: CategoryRow): Category => ({ id: r.id, name: r.name, colour: r.colour as CategoryColour, sortOrder: r.sort_order, archived: r.archived === 1 });

export const CATEGORY_MESSAGES = {
  notFound: 'That category is not in the catalogue.',
  archived: (name: string) => `The category “${name}” is archived: restore it first, or choose another.`,
  nameTaken: (name: string) => `There is a category called “${name}” already.`,
} as const;

export class Categories {
  constructor(
    private readonly db: PosDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  /** By their order, then name; archived ones only when asked. */
  list(includeArchived = false): Category[] {
    const rows = this.db.prepare('SELECT * FROM catalogue_categories WHERE (? = 1 OR archived = 0) ORDER BY sort_order, name COLLATE NOCASE, id').all(includeArchived ? 1 : 0) as CategoryRow[];
    return rows.map(toCategory);
  }

  get(id: string): Category | undefined {
    const r = this.db.prepare('SELECT * FROM catalogue_categories WHERE id = ?').get(id) as CategoryRow | undefined;
    return r ? toCategory(r) : undefined;
  }

  /** The category of that name, any case (archived ones too), other than `exceptId`. */
  byName(name: string, exceptId?: string): Category | undefined {
    const r = this.db.prepare('SELECT * FROM catalogue_categories WHERE lower(name) = lower(?) AND id IS NOT ? ORDER BY archived, created_ts LIMIT 1').get(name.trim(), exceptId ?? null) as
      | CategoryRow
      | undefined;
    return r ? toCategory(r) : undefined;
  }

  add(fields: CategoryFields): Category {
    const id = randomUUID();
    this.db.prepare('INSERT INTO catalogue_categories (id, name, colour, sort_order, archived, created_ts) VALUES (?, ?, ?, ?, 0, ?)').run(id, fields.name, fields.colour, fields.sortOrder, this.now());
    return this.get(id)!;
  }

  update(id: string, fields: CategoryFields): Category | undefined {
    const r = this.db.prepare('UPDATE catalogue_categories SET name = ?, colour = ?, sort_order = ? WHERE id = ?').run(fields.name, fields.colour, fields.sortOrder, id);
    return r.changes === 1 ? this.get(id) : undefined;
  }

  setArchived(id: string, archived: boolean): Category | undefined {
    const r = this.db.prepare('UPDATE catalogue_categories SET archived = ? WHERE id = ?').run(archived ? 1 : 0, id);
    return r.changes === 1 ? this.get(id) : undefined;
  }
}

/**
 * Modifier groups (`modifier_groups`, `modifier_options`) and which an item offers
 * (`catalogue_item_groups`, in order): a required Size, optional add-ons with a price, each
 * group with its fewest and most choices. Groups and choices are archived, never deleted: a
 * past line copied the names and prices it was sold with, and a choice's id stays its own.
 *
 * A group's choices are saved as the whole list the form (or a CSV file) gives: a choice with
 * its id keeps its row; one without takes the row of the group's choice of the same name (an
 * archived one comes back); a choice left out is archived. An archived group stays linked to
 * its items but is not offered (the items list only active groups).
 */
import { randomUUID } from 'node:crypto';
import type { ModifierGroup, ModifierGroupFields } from '../../../shared/ipc/catalogue';
import type { PosDatabase } from '../platform/pos-database';

interface GroupRow {
  id: string;
  name: string;
  min_choices: number;
  max_choices: number;
  archived: number;
}
interface OptionRow {
  id: string;
  group_id: string;
  seq: number;
  name: string;
  price_cents: number;
  archived: number;
}

export const MODIFIER_MESSAGES = {
  notFound: 'That modifier group is not in the catalogue.',
  archived: (name: string) => `The modifier group “${name}” is archived: restore it first.`,
  nameTaken: (name: string) => `There is a modifier group called “${name}” already.`,
  choiceTwice: (name: string) => `The choice “${name}” is in the group twice.`,
} as const;

export class ModifierGroups {
  constructor(
    private readonly db: PosDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  /** By name; archived ones only when asked. Each with its active choices, in order. */
  list(includeArchived = false): ModifierGroup[] {
    const rows = this.db.prepare('SELECT * FROM modifier_groups WHERE (? = 1 OR archived = 0) ORDER BY name COLLATE NOCASE, id').all(includeArchived ? 1 : 0) as GroupRow[];
    const options = this.db.prepare('SELECT * FROM modifier_options WHERE archived = 0 ORDER BY group_id, seq').all() as OptionRow[];
    return rows.map((r) => this.toGroup(r, options));
  }

  get(id: string): ModifierGroup | undefined {
    const r = this.db.prepare('SELECT * FROM modifier_groups WHERE id = ?').get(id) as GroupRow | undefined;
    if (!r) return undefined;
    return this.toGroup(r, this.db.prepare('SELECT * FROM modifier_options WHERE archived = 0 AND group_id = ? ORDER BY seq').all(id) as OptionRow[]);
  }

  /** The group of that name, any case (archived ones too), other than `exceptId`. */
  byName(name: string, exceptId?: string): ModifierGroup | undefined {
    const r = this.db.prepare('SELECT id FROM modifier_groups WHERE lower(name) = lower(?) AND id IS NOT ? ORDER BY archived, created_ts LIMIT 1').get(name.trim(), exceptId ?? null) as { id: string } | undefined;
    return r ? this.get(r.id) : undefined;
  }

  /** A sentence when the group's choices name one twice (any case); null when they are fine. */
  problem(fields: ModifierGroupFields): string | null {
    const seen = new Set<string>();
    for (const o of fields.options) {
      const k = o.name.toLowerCase();
      if (seen.has(k)) return MODIFIER_MESSAGES.choiceTwice(o.name);
      seen.add(k);
    }
    return null;
  }

  add(fields: ModifierGroupFields): ModifierGroup {
    const id = randomUUID();
    this.db.transaction(() => {
      this.db.prepare('INSERT INTO modifier_groups (id, name, min_choices, max_choices, archived, created_ts) VALUES (?, ?, ?, ?, 0, ?)').run(id, fields.name, fields.minChoices, fields.maxChoices, this.now());
      this.saveOptions(id, fields.options);
    })();
    return this.get(id)!;
  }

  update(id: string, fields: ModifierGroupFields): ModifierGroup | undefined {
    let changed = 0;
    this.db.transaction(() => {
      changed = this.db.prepare('UPDATE modifier_groups SET name = ?, min_choices = ?, max_choices = ? WHERE id = ?').run(fields.name, fields.minChoices, fields.maxChoices, id).changes;
      if (changed === 1) this.saveOptions(id, fields.options);
    })();
    return changed === 1 ? this.get(id) : undefined;
  }

  setArchived(id: string, archived: boolean): ModifierGroup | undefined {
    const r = this.db.prepare('UPDATE modifier_groups SET archived = ? WHERE id = ?').run(archived ? 1 : 0, id);
    return r.changes === 1 ? this.get(id) : undefined;
  }

  /** The active groups each item offers, in the item's order, by item id. */
  groupIdsOfItems(): Map<string, string[]> {
    const rows = this.db
      .prepare('SELECT l.item_id, l.group_id FROM catalogue_item_groups l JOIN modifier_groups g ON g.id = l.group_id WHERE g.archived = 0 ORDER BY l.item_id, l.seq')
      .all() as Array<{ item_id: string; group_id: string }>;
    const m = new Map<string, string[]>();
    for (const r of rows) m.set(r.item_id, [...(m.get(r.item_id) ?? []), r.group_id]);
    return m;
  }

  /**
   * The item offers these groups, in this order (run inside the caller's transaction). Its links
   * to archived groups stay (the form never shows them), so a group restored is offered again.
   */
  linkItem(itemId: string, groupIds: readonly string[]): void {
    this.db.prepare('DELETE FROM catalogue_item_groups WHERE item_id = ? AND group_id NOT IN (SELECT id FROM modifier_groups WHERE archived = 1)').run(itemId);
    const ins = this.db.prepare('INSERT OR REPLACE INTO catalogue_item_groups (item_id, group_id, seq) VALUES (?, ?, ?)');
    [...new Set(groupIds)].forEach((g, i) => ins.run(itemId, g, i + 1));
  }

  private saveOptions(groupId: string, options: ModifierGroupFields['options']): void {
    const existing = this.db.prepare('SELECT * FROM modifier_options WHERE group_id = ? ORDER BY archived, seq').all(groupId) as OptionRow[];
    const used = new Set<string>();
    options.forEach((o, i) => {
      const row =
        (o.id !== undefined ? existing.find((r) => r.id === o.id && !used.has(r.id)) : undefined) ??
        existing.find((r) => !used.has(r.id) && r.name.toLowerCase() === o.name.toLowerCase());
      if (row) {
        used.add(row.id);
        this.db.prepare('UPDATE modifier_options SET seq = ?, name = ?, price_cents = ?, archived = 0 WHERE id = ?').run(i + 1, o.name, o.priceCents, row.id);
      } else this.db.prepare('INSERT INTO modifier_options (id, group_id, seq, name, price_cents, archived) VALUES (?, ?, ?, ?, ?, 0)').run(randomUUID(), groupId, i + 1, o.name, o.priceCents);
    });
    for (const r of existing) if (!used.has(r.id)) this.db.prepare('UPDATE modifier_options SET archived = 1 WHERE id = ?').run(r.id);
  }

  private toGroup(r: GroupRow, options: readonly OptionRow[]): ModifierGroup {
    return {
      id: r.id,
      name: r.name,
      minChoices: r.min_choices,
      maxChoices: r.max_choices,
      archived: r.archived === 1,
      options: options.filter((o) => o.group_id === r.id).map((o) => ({ id: o.id, name: o.name, priceCents: o.price_cents })),
    };
  }
}

/** Field declarations that recur across resources (ids, timestamps, phones, custom fields). */
import type { ExpandFn, StoredFieldDef } from '../framework/resource';

export const idField: StoredFieldDef = { type: 'string', readOnly: true };
export const tsField: StoredFieldDef = { type: 'integer', readOnly: true };
export const systemUser: StoredFieldDef = { type: 'string', readOnly: true };
export const str = (min: number, max: number, extra: Partial<StoredFieldDef> = {}): StoredFieldDef => ({ type: 'string', min, max, ...extra });
export const phone: StoredFieldDef = { type: 'string', min: 10, max: 10, format: 'digits' };
export const bool = (dflt?: 0 | 1, extra: Partial<StoredFieldDef> = {}): StoredFieldDef => ({ type: 'boolean', ...(dflt === undefined ? {} : { default: dflt }), ...extra });
export const locationRef: StoredFieldDef = { type: 'string', min: 24, max: 36, required: true, update: false, ref: 'location' };

/** Embeds the record `row[column]` of `resource` (visible to the caller, or any when `unscoped`). */
export function refExpand(resource: string, column: string, unscoped = false): ExpandFn {
  return (ctx, row, auth) => {
    const id = row[column];
    if (id === null || id === undefined) return null;
    const def = ctx.resource(resource);
    const rec = unscoped || def.scope.kind === 'none' ? ctx.getById(def, id) : ctx.getVisible(def, id, auth);
    return rec ? ctx.serialize(def, rec, auth) : null;
  };
}

/** The user who created the record (shown even when that user belongs to a parent location). */
export const createdUserExpand: ExpandFn = refExpand('user', 'created_user_id', true);

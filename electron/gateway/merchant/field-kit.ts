/** Field declarations that recur across resources (ids, timestamps, phones, custom fields). */
import type { ExpandFn, FieldDef } from '../framework/resource';

export const idField: FieldDef = { type: 'string', readOnly: true };
export const tsField: FieldDef = { type: 'integer', readOnly: true };
export const systemUser: FieldDef = { type: 'string', readOnly: true };
export const str = (min: number, max: number, extra: Partial<FieldDef> = {}): FieldDef => ({ type: 'string', min, max, ...extra });
export const phone: FieldDef = { type: 'string', min: 10, max: 10, format: 'digits' };
export const bool = (dflt?: 0 | 1, extra: Partial<FieldDef> = {}): FieldDef => ({ type: 'boolean', ...(dflt === undefined ? {} : { default: dflt }), ...extra });
export const locationRef: FieldDef = { type: 'string', min: 24, max: 36, required: true, update: false, ref: 'location' };

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

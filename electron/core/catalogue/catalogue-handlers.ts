/**
 * The `catalogue:*` handlers: any signed-in counter user lists items, categories and modifier
 * groups (the sale screen's tabs, grid and picker); managers add, edit, archive, import and
 * export, count stock and set the cart rules (catalogue.ts in shared/ipc declares who, and what
 * is audited; the channel rules enforce both).
 */
import { cartRulesSchema, type CartRules } from '../../../shared/ipc/catalogue';
import type { HandlerMap } from '../../../shared/ipc/contract';
import { fail, ok } from '../../../shared/result';
import { CATALOGUE_MESSAGES, type Catalogue, type FieldProblems } from './catalogue';
import { CATEGORY_MESSAGES } from './categories';
import { exportCatalogueCsv, importCatalogueCsv } from './catalogue-csv';
import { MODIFIER_MESSAGES } from './modifier-groups';
import { setSetting, type PosDatabase } from '../platform/pos-database';
import { CART_RULES_KEY, cartRulesOf } from '../cart/tenders';
import { callerSession } from '../../ipc/channel-rules';

type CatalogueHandlers = Pick<
  HandlerMap,
  | 'catalogue:list'
  | 'catalogue:add'
  | 'catalogue:update'
  | 'catalogue:archive'
  | 'catalogue:import-csv'
  | 'catalogue:rules'
  | 'catalogue:set-rules'
  | 'catalogue:categories'
  | 'catalogue:save-category'
  | 'catalogue:archive-category'
  | 'catalogue:modifier-groups'
  | 'catalogue:save-modifier-group'
  | 'catalogue:archive-modifier-group'
  | 'catalogue:adjust-stock'
  | 'catalogue:low-stock'
  | 'catalogue:export-csv'
>;

/** The form's field errors as one refusal: the first sentence said, every field marked. */
const refuse = (problems: NonNullable<FieldProblems>) => fail('bad_request', Object.values(problems)[0]![0]!, problems);

export function createCatalogueHandlers(deps: { db: PosDatabase; catalogue: Catalogue }): CatalogueHandlers {
  const { db, catalogue } = deps;
  const isManager = () => callerSession().user.role === 'manager';
  return {
    'catalogue:list': async ({ includeArchived, search }) => {
      return ok(catalogue.list({ includeArchived: includeArchived && isManager(), search }));
    },
    'catalogue:add': async (fields) => {
      const problems = catalogue.problems(fields);
      return problems ? refuse(problems) : ok(catalogue.add(fields));
    },
    'catalogue:update': async ({ id, fields }) => {
      if (!catalogue.get(id)) return fail('not_found', CATALOGUE_MESSAGES.notFound);
      const problems = catalogue.problems(fields, id);
      if (problems) return refuse(problems);
      const item = catalogue.update(id, fields);
      return item ? ok(item) : fail('not_found', CATALOGUE_MESSAGES.notFound);
    },
    'catalogue:archive': async ({ id, archived }) => {
      const item = catalogue.setArchived(id, archived);
      return item ? ok(item) : fail('not_found', CATALOGUE_MESSAGES.notFound);
    },
    'catalogue:import-csv': async ({ csv }) => {
      const { user } = callerSession();
      return ok(importCatalogueCsv(db, catalogue, csv, { id: user.id, name: user.name }));
    },
    'catalogue:export-csv': async () => ok(exportCatalogueCsv(catalogue)),
    'catalogue:rules': async () => {
      return ok(cartRulesOf(db));
    },
    'catalogue:set-rules': async (rules: Partial<CartRules>) => {
      const parsed = cartRulesSchema.parse({ ...cartRulesOf(db), ...rules });
      setSetting(db, CART_RULES_KEY, JSON.stringify(parsed));
      return ok(parsed);
    },

    'catalogue:categories': async ({ includeArchived }) => ok(catalogue.categories.list(includeArchived && isManager())),
    'catalogue:save-category': async ({ id, fields }) => {
      const { categories } = catalogue;
      if (id !== undefined && !categories.get(id)) return fail('not_found', CATEGORY_MESSAGES.notFound);
      const same = categories.byName(fields.name, id);
      if (same) return refuse({ name: [CATEGORY_MESSAGES.nameTaken(same.name)] });
      return ok(id === undefined ? categories.add(fields) : categories.update(id, fields)!);
    },
    'catalogue:archive-category': async ({ id, archived }) => {
      const c = catalogue.categories.setArchived(id, archived);
      return c ? ok(c) : fail('not_found', CATEGORY_MESSAGES.notFound);
    },

    'catalogue:modifier-groups': async ({ includeArchived }) => ok(catalogue.groups.list(includeArchived && isManager())),
    'catalogue:save-modifier-group': async ({ id, fields }) => {
      const { groups } = catalogue;
      if (id !== undefined && !groups.get(id)) return fail('not_found', MODIFIER_MESSAGES.notFound);
      const same = groups.byName(fields.name, id);
      if (same) return refuse({ name: [same.archived ? MODIFIER_MESSAGES.archived(same.name) : MODIFIER_MESSAGES.nameTaken(same.name)] });
      const twice = groups.problem(fields);
      if (twice) return refuse({ options: [twice] });
      return ok(id === undefined ? groups.add(fields) : groups.update(id, fields)!);
    },
    'catalogue:archive-modifier-group': async ({ id, archived }) => {
      const g = catalogue.groups.setArchived(id, archived);
      return g ? ok(g) : fail('not_found', MODIFIER_MESSAGES.notFound);
    },

    'catalogue:adjust-stock': async (change) => {
      const { user } = callerSession();
      const r = catalogue.stock.adjust(change, { id: user.id, name: user.name });
      if (!r.ok) return fail('conflict', r.message, { change: [r.message] });
      return ok({ item: catalogue.get(change.itemId)!, variantId: change.variantId, name: r.name, before: r.before, after: r.after });
    },
    'catalogue:low-stock': async () => ok(catalogue.stock.lowStock()),
  };
}

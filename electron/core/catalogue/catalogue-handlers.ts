/**
 * The `catalogue:*` handlers: any signed-in counter user lists items (the sale screen's
 * quick keys and search); managers add, edit, archive, import and set the cart rules
 * (catalogue.ts declares who, and what is audited; the channel rules enforce both).
 */
import { cartRulesSchema, type CartRules } from '../../../shared/ipc/catalogue';
import type { HandlerMap } from '../../../shared/ipc/contract';
import { fail, ok } from '../../../shared/result';
import { CATALOGUE_MESSAGES, type Catalogue } from './catalogue';
import { setSetting, type PosDatabase } from '../platform/pos-database';
import { CART_RULES_KEY, cartRulesOf } from '../cart/tenders';
import { callerSession } from '../../ipc/channel-rules';

type CatalogueHandlers = Pick<
  HandlerMap,
  'catalogue:list' | 'catalogue:add' | 'catalogue:update' | 'catalogue:archive' | 'catalogue:import-csv' | 'catalogue:rules' | 'catalogue:set-rules'
>;

export function createCatalogueHandlers(deps: { db: PosDatabase; catalogue: Catalogue }): CatalogueHandlers {
  const { db, catalogue } = deps;
  /** A SKU names one item: another item's SKU is refused on the form's field. */
  const skuTaken = (sku: string, exceptId?: string) => {
    const other = catalogue.bySku(sku, exceptId);
    if (!other) return null;
    const msg = CATALOGUE_MESSAGES.skuInUse(sku, other.name);
    return fail('bad_request', msg, { sku: [msg] });
  };
  return {
    'catalogue:list': async ({ includeArchived, search }) => {
      return ok(catalogue.list({ includeArchived: includeArchived && callerSession().user.role === 'manager', search }));
    },
    'catalogue:add': async (fields) => {
      const taken = skuTaken(fields.sku);
      return taken ?? ok(catalogue.add(fields));
    },
    'catalogue:update': async ({ id, fields }) => {
      const taken = skuTaken(fields.sku, id);
      if (taken) return taken;
      const item = catalogue.update(id, fields);
      return item ? ok(item) : fail('not_found', CATALOGUE_MESSAGES.notFound);
    },
    'catalogue:archive': async ({ id, archived }) => {
      const item = catalogue.setArchived(id, archived);
      return item ? ok(item) : fail('not_found', CATALOGUE_MESSAGES.notFound);
    },
    'catalogue:import-csv': async ({ csv }) => {
      return ok(catalogue.importCsv(csv));
    },
    'catalogue:rules': async () => {
      return ok(cartRulesOf(db));
    },
    'catalogue:set-rules': async (rules: Partial<CartRules>) => {
      const parsed = cartRulesSchema.parse({ ...cartRulesOf(db), ...rules });
      setSetting(db, CART_RULES_KEY, JSON.stringify(parsed));
      return ok(parsed);
    },
  };
}

/**
 * The store's cart rules (how large a discount a cashier may give without a manager, the
 * default commodity code for Level 3), saved by the catalogue screen in the app database.
 * A missing or unreadable value falls back to the defaults.
 */
import { DEFAULT_CART_RULES, type CartRules } from '../../../shared/ipc/catalogue';
import { getSetting, type PosDatabase } from '../platform/pos-database';

export const CART_RULES_KEY = 'cart-rules';

export function cartRulesOf(db: PosDatabase): CartRules {
  const raw = getSetting(db, CART_RULES_KEY);
  if (!raw) return DEFAULT_CART_RULES;
  try {
    return { ...DEFAULT_CART_RULES, ...(JSON.parse(raw) as Partial<CartRules>) };
  } catch {
    return DEFAULT_CART_RULES;
  }
}

/**
 * The payment pages are public (the payer has no credentials): their payments run as the
 * user who created the pay link or invoice, with that user's locations and permissions,
 * exactly as if that user had called POST /v2/transactions. A deactivated creator means
 * the page cannot take payments (undefined).
 */
import type { AuthInfo, EngineContext } from '../framework/context';
import type { Row } from '../framework/resource';

export function authForUser(ctx: EngineContext, userId: unknown): AuthInfo | undefined {
  if (typeof userId !== 'string') return undefined;
  const user = ctx.stmt('SELECT * FROM users WHERE id = ?').get(userId) as Row | undefined;
  if (!user || user.status_id !== 1) return undefined;
  const locationIds = (
    ctx
      .stmt(`WITH RECURSIVE visible(id) AS (SELECT location_id FROM user_locations WHERE user_id = ?
        UNION SELECT l.id FROM locations l JOIN visible v ON l.parent_id = v.id) SELECT id FROM visible ORDER BY id`)
      .all(userId) as { id: string }[]
  ).map((r) => r.id);
  const direct = (ctx.stmt('SELECT location_id FROM user_locations WHERE user_id = ? ORDER BY location_id').all(userId) as { location_id: string }[]).map((r) => r.location_id);
  return {
    userId,
    developerId: String(user.developer_company_id ?? ''),
    user,
    locationIds,
    locationSet: new Set(locationIds),
    directLocationIds: direct,
    locationsJson: JSON.stringify(locationIds),
  };
}

/**
 * What each user type may do with money, declared once. The seed names only 250 (Client
 * Admin) and says roles can forbid actions such as void or refund; the sets for the other
 * types are Ringup's reading, documented in the engine README:
 *
 * | user_type_id | role | sell | refund | void | settle |
 * | 250 | Client Admin | ✔ | ✔ | ✔ | ✔ |
 * | 200 | Manager | ✔ | ✔ | ✔ | ✔ |
 * | 100 | User (cashier) | ✔ |  |  |  |
 * | 50 | Device installer |  |  |  |  |
 *
 * - sell: sale, authonly, avsonly, force, debit, authcomplete, authincrement, edit (tips);
 * - refund: refund, credit (money back to the customer), also on a terminal;
 * - void: void and partialreversal (approved money that will not be collected);
 * - settle: closing a batch.
 * Any other user_type_id may sell only (least privilege). A device installer moves no money:
 * terminals, scanners and device terms need only membership of the location, which every
 * user type has. User management stays with admins (user-permissions.ts). A forbidden
 * action answers 403 in the error envelope. Simplification: only transactions and batch
 * settling are checked; saved cards, recurring schedules and pay links are not role-checked.
 */
import type { AuthInfo } from '../framework/context';
import { ApiError, fmt } from '../framework/errors';
import { ADMIN_USER_TYPE } from './user-permissions';

export const MANAGER_USER_TYPE = 200;
export const PLAIN_USER_TYPE = 100;
/** Sets up terminals, scanners and device terms; moves no money (the counter's installer role). */
export const INSTALLER_USER_TYPE = 50;

export type MoneyPermission = 'sell' | 'refund' | 'void' | 'settle';

export const ROLE_PERMISSIONS: Readonly<Record<number, readonly MoneyPermission[]>> = {
  [ADMIN_USER_TYPE]: ['sell', 'refund', 'void', 'settle'],
  [MANAGER_USER_TYPE]: ['sell', 'refund', 'void', 'settle'],
  [PLAIN_USER_TYPE]: ['sell'],
  [INSTALLER_USER_TYPE]: [],
};
const DEFAULT_PERMISSIONS: readonly MoneyPermission[] = ['sell'];

/** The permission a transaction action needs. */
export function permissionForAction(action: string): MoneyPermission {
  if (action === 'refund' || action === 'credit') return 'refund';
  if (action === 'void' || action === 'partialreversal') return 'void';
  return 'sell';
}

export const ROLE_MSG = {
  FORBIDDEN: 'Your user type may not {what}; ask a manager or an admin.',
} as const;

const WHAT: Record<MoneyPermission, string> = { sell: 'sell', refund: 'refund or credit money', void: 'void or reverse transactions', settle: 'settle batches' };

export function userMay(auth: AuthInfo, p: MoneyPermission): boolean {
  const type = Number(auth.user.user_type_id);
  return (ROLE_PERMISSIONS[type] ?? DEFAULT_PERMISSIONS).includes(p);
}

/** Throws 403 unless the caller's user type has the permission. */
export function requirePermission(auth: AuthInfo, p: MoneyPermission): void {
  if (!userMay(auth, p)) throw new ApiError(403, { general: [fmt(ROLE_MSG.FORBIDDEN, { what: WHAT[p] })] });
}

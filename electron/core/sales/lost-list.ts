/**
 * `sale:lost-list` and `sale:lost-seen`: the payments whose answer was lost, as the banner at
 * the top of the counter lists them, and a cashier saying they have seen what became of one.
 */
import type { HandlerArg, HandlerResults } from '../../../shared/ipc/contract';
import { ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';
import type { LostPayments } from './lost-payments';

export interface LostListDeps {
  users: UserDirectory;
  lost: LostPayments;
}

export async function lostList(deps: LostListDeps): Promise<Result<HandlerResults['sale:lost-list']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  return ok(deps.lost.list());
}

export async function lostSeen(deps: LostListDeps, { id }: HandlerArg<'sale:lost-seen'>): Promise<Result<HandlerResults['sale:lost-seen']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  deps.lost.seen(id, s.value);
  return ok(deps.lost.list());
}

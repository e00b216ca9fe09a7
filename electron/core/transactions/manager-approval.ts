/**
 * A cashier's step that gives money back (a refund, a void, a lower tip, a paid cart's card
 * returned), approved at their counter by a manager's PIN. The PIN is checked here, never on
 * the screen: wrong PINs count toward the same lockout as at sign-in. The step then runs as
 * that manager — under a caller of their own, so the gateway gets it with the admin user and
 * its clerk record names them — while the window stays the cashier's, who the audit line
 * names as the one who asked.
 */
import type { Approval } from '../../../shared/ipc/common';
import type { Session } from '../../../shared/ipc/contract';
import { fail, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';

/** What a cashier's step says when it waits for a manager, when the PIN is not a manager's, and when the approver is locked out. */
export interface ApprovalWords {
  needed: string;
  refused: string;
  locked(wait: string): string;
}

export interface ManagerApprovalDeps {
  users: UserDirectory;
  now: () => number;
}

/** Runs `step` as the manager whose PIN `approval` carries; without one (or with a wrong one) it says why not. */
export async function byManager<T>(deps: ManagerApprovalDeps, approval: Approval | undefined, words: ApprovalWords, step: (manager: Session) => Promise<Result<T>>): Promise<Result<T>> {
  if (!approval) return fail('approval_needed', words.needed, { approval: [words.needed] });
  const m = await deps.users.verifyManager(approval.managerId, approval.pin);
  if (!m.ok) {
    const msg = m.error.code === 'locked' ? words.locked(m.error.message) : words.refused;
    return fail(m.error.code === 'locked' ? 'locked' : 'approval_refused', msg, { approval: [msg] });
  }
  return deps.users.actAsManager(m.value, () => step({ user: m.value, signedInAt: deps.now() }));
}

/** The `audit:*` channels: managers read the audit log and check its hash chain; the core refuses everyone else. */
import type { HandlerMap } from '../../../shared/ipc/contract';
import { ok } from '../../../shared/result';
import type { AuditLog } from './audit-log';
import type { UserDirectory } from '../auth/users';

export function createAuditHandlers(users: UserDirectory, audit: AuditLog): Pick<HandlerMap, 'audit:list' | 'audit:verify'> {
  return {
    'audit:list': async (args) => {
      const s = users.require('manager');
      if (!s.ok) return s;
      return ok(audit.list(args));
    },
    'audit:verify': async () => {
      const s = users.require('manager');
      if (!s.ok) return s;
      return ok(await audit.verify());
    },
  };
}

/** The `audit:*` channels: managers read the audit log and check its hash chain (audit.ts declares who may). */
import type { HandlerMap } from '../../../shared/ipc/contract';
import { ok } from '../../../shared/result';
import type { AuditLog } from './audit-log';

export function createAuditHandlers(audit: AuditLog): Pick<HandlerMap, 'audit:list' | 'audit:verify'> {
  return {
    'audit:list': async (args) => ok(audit.list(args)),
    'audit:verify': async () => ok(await audit.verify()),
  };
}

/** The `audit:*` channels: managers read the audit log (audit.ts declares who may). */
import type { HandlerMap } from '../../../shared/ipc/contract';
import { ok } from '../../../shared/result';
import type { AuditLog } from './audit-log';

export function createAuditHandlers(audit: AuditLog): Pick<HandlerMap, 'audit:list'> {
  return {
    'audit:list': async (args) => ok(audit.list(args)),
  };
}

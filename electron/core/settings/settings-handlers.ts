/** The `settings:*` channels: every signed-in user reads the store settings; managers change them. */
import type { HandlerMap } from '../../../shared/ipc/contract';
import { ok } from '../../../shared/result';
import type { AuditLog } from '../audit/audit-log';
import type { CoreEvents } from '../platform/events';
import { describeSettingsChange, type StoreSettingsStore } from './store-settings';
import type { UserDirectory } from '../auth/users';

export function createSettingsHandlers(deps: {
  users: UserDirectory;
  settings: StoreSettingsStore;
  audit: AuditLog;
  events: CoreEvents;
}): Pick<HandlerMap, 'settings:get' | 'settings:update'> {
  const { users, settings, audit, events } = deps;
  return {
    'settings:get': async () => {
      const s = users.require();
      if (!s.ok) return s;
      return ok(settings.get());
    },
    'settings:update': async (next) => {
      const s = users.require('manager');
      if (!s.ok) return s;
      const before = settings.get();
      const changed = settings.save(next);
      const after = settings.get();
      audit.record({ kind: 'settings-change', user: s.value.user, detail: describeSettingsChange(before, after, changed) });
      if (changed.includes('idleLockMinutes')) users.rearm();
      events.emit('settings:changed', after);
      return ok(after);
    },
  };
}

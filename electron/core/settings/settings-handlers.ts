/** The `settings:*` channels: every signed-in user reads the store settings; managers change them (settings.ts declares who, and the audit record). */
import type { HandlerMap } from '../../../shared/ipc/contract';
import { ok } from '../../../shared/result';
import type { CoreEvents } from '../platform/events';
import type { StoreSettingsStore } from './store-settings';
import type { UserDirectory } from '../auth/users';

export function createSettingsHandlers(deps: { users: UserDirectory; settings: StoreSettingsStore; events: CoreEvents }): Pick<HandlerMap, 'settings:get' | 'settings:update'> {
  const { users, settings, events } = deps;
  return {
    'settings:get': async () => ok(settings.get()),
    'settings:update': async (next) => {
      const changed = settings.save(next);
      const after = settings.get();
      if (changed.includes('idleLockMinutes')) users.rearm();
      events.emit('settings:changed', after);
      return ok(after);
    },
  };
}

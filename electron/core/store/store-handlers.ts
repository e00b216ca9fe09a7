/**
 * The `store:*` channels (issue 24), over this register's StoreRegister (store-register.ts):
 * the status, joining, the store's registers, the one-time code for the next, renaming and
 * removing, the store's report and its Z. Every failure answers a sentence from STORE_MSG or the
 * store server's own (`{"errors": …}`), never a stack. Who may call each, and what is audited,
 * is declared in shared/ipc/store.ts.
 */
import type { HandlerMap } from '../../../shared/ipc/contract';
import { ok } from '../../../shared/result';
import { callerSession } from '../../ipc/channel-rules';
import type { StoreRegister } from './store-register';

type StoreHandlers = Pick<HandlerMap, 'store:status' | 'store:join' | 'store:registers' | 'store:invite' | 'store:rename-register' | 'store:remove-register' | 'store:report' | 'store:close-day' | 'store:days'>;

export function createStoreHandlers(store: StoreRegister): StoreHandlers {
  return {
    'store:status': async () => ok(store.current()),
    'store:join': (args) => store.join(args),
    'store:registers': () => store.registers(),
    'store:invite': () => store.invite(),
    'store:rename-register': ({ id, name }) => store.rename(id, name),
    'store:remove-register': ({ id }) => store.remove(id),
    'store:report': () => store.report(),
    'store:close-day': ({ counts }) => store.closeDay(counts, callerSession().user.name),
    'store:days': () => store.days(),
  };
}

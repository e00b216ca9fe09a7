/**
 * The `store:*` channels (issue 24). This first version answers for a register in no store:
 * the status says so, and every store action says the register is not in one. The store sync
 * (the rest of this folder) replaces it.
 */
import { STORE_MSG, STORE_STATUS_NONE, type HandlerMap } from '../../../shared/ipc/contract';
import { fail, ok } from '../../../shared/result';

type StoreHandlers = Pick<HandlerMap, 'store:status' | 'store:join' | 'store:registers' | 'store:invite' | 'store:rename-register' | 'store:remove-register' | 'store:report' | 'store:close-day' | 'store:days'>;

export function createStoreHandlers(): StoreHandlers {
  const notJoined = async () => fail('not_joined', STORE_MSG.notJoined);
  return {
    'store:status': async () => ok(STORE_STATUS_NONE),
    'store:join': notJoined,
    'store:registers': notJoined,
    'store:invite': notJoined,
    'store:rename-register': notJoined,
    'store:remove-register': notJoined,
    'store:report': notJoined,
    'store:close-day': notJoined,
    'store:days': notJoined,
  };
}

/**
 * The store server's routes as calls (shared/store/store-wire.ts), over a pinned StoreLink
 * (store-tls.ts). The wire types are the server's; this file only names each call once.
 */
import { PULL_WAIT_MAX_MS, STORE_ROUTES, SYNC_BATCH_MAX, type JoinAnswer, type JoinRequest, type PullAnswer, type PushAnswer, type PushedEvent, type RegistersAnswer, type StoreCloseRequest, type StoreDay, type StoreFigures } from '../../../shared/store/store-wire';
import type { StoreAnswer, StoreLink } from './store-tls';

/** A store day as the server lists it: which registers have pushed their Z for it. */
export type StoreDayListed = StoreDay & { closed?: string[]; waitingFor?: string[] };

const registerPath = (id: string) => STORE_ROUTES.register.replace(':id', encodeURIComponent(id));

export class StoreApi {
  constructor(readonly link: StoreLink) {}

  join(req: JoinRequest): Promise<StoreAnswer<JoinAnswer>> {
    return this.link.send('POST', STORE_ROUTES.join, req);
  }

  push(events: PushedEvent[]): Promise<StoreAnswer<PushAnswer>> {
    return this.link.send('POST', STORE_ROUTES.events, { events });
  }

  /** Long poll: the server answers when there is something after `after`, or after `waitMs`. */
  pull(after: number, waitMs = PULL_WAIT_MAX_MS): Promise<StoreAnswer<PullAnswer>> {
    return this.link.send('GET', `${STORE_ROUTES.pull}?after=${after}&limit=${SYNC_BATCH_MAX}&waitMs=${waitMs}`, undefined, waitMs);
  }

  invite(codeProof: string, sealedPepper: string | null): Promise<StoreAnswer<{ expiresTs: number }>> {
    return this.link.send('POST', STORE_ROUTES.invitations, { codeProof, sealedPepper });
  }

  registers(): Promise<StoreAnswer<RegistersAnswer>> {
    return this.link.send('GET', STORE_ROUTES.registers);
  }

  rename(id: string, name: string): Promise<StoreAnswer<unknown>> {
    return this.link.send('PATCH', registerPath(id), { name });
  }

  remove(id: string): Promise<StoreAnswer<unknown>> {
    return this.link.send('DELETE', registerPath(id));
  }

  /** `from`/`to`: unix seconds. */
  figures(from: number, to: number): Promise<StoreAnswer<StoreFigures>> {
    return this.link.send('GET', `${STORE_ROUTES.figures}?from=${from}&to=${to}`);
  }

  closeDay(req: StoreCloseRequest): Promise<StoreAnswer<StoreDayListed>> {
    return this.link.send('POST', STORE_ROUTES.storeDays, req);
  }

  days(): Promise<StoreAnswer<StoreDayListed[]>> {
    return this.link.send('GET', STORE_ROUTES.storeDayList);
  }
}

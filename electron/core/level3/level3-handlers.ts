/**
 * Level 3 data of a transaction (managers only). Whether it applies comes from the
 * gateway: the transaction's `transaction_level3` expand is null when it cannot carry
 * Level 3 (declined, not Visa/Mastercard, Level 3 not enabled). A personal card is told
 * apart from a commercial one by the data the processor attaches at approval: the
 * sandbox gives commercial cards a default Level 3 line, personal cards none.
 * Simplification: a gateway that attaches nothing would make every card look personal;
 * a BIN lookup would be the next step. Data is checked with the engine's own schemas
 * before it is sent, and the gateway checks it again.
 */
import type { HandlerMap, Level3View } from '../../../shared/ipc/contract';
import { LEVEL3_MAX_LINE_ITEMS, validateLevel3, type Level3Data, type Level3Network } from '../../../shared/payments/level3-schema';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { V2Transaction } from '../../client/v2-types';
import { brandLabel } from '../sales/card-brand';
import { withGatewayFailure } from '../gateway/guarded-call';
import { STATUS } from '../transactions/transaction-view';

export const LEVEL3_MESSAGES = {
  personal: (card: string) => `Level 3 is for business (commercial) cards. ${card} is a personal card, so its card network takes no Level 3 data.`,
  notApproved: 'Level 3 data can only be added to an approved card sale.',
  network: (card: string) => `Level 3 data is for Visa and Mastercard business cards; ${card} is not one.`,
  invalid: 'Some Level 3 fields need attention.',
} as const;

type Level3Handlers = Pick<HandlerMap, 'level3:view' | 'level3:save'>;

interface L3Expand {
  id: string | null;
  level3_data: Level3Data | null;
}

function networkOf(t: V2Transaction): Level3Network | null {
  const b = brandLabel(t.account_type, t.first_six);
  return b === 'Visa' ? 'visa' : b === 'Mastercard' ? 'mastercard' : null;
}

export function level3ViewOf(t: V2Transaction): Level3View {
  const cardLabel = `${brandLabel(t.account_type, t.first_six)} •••• ${(t.last_four ?? '').slice(-4)}`;
  const network = networkOf(t);
  const l3 = (t.transaction_level3 ?? null) as L3Expand | null;
  const base = { transactionId: t.id, cardLabel, network, maxLineItems: network ? LEVEL3_MAX_LINE_ITEMS[network] : 0, data: l3?.level3_data ?? null };
  const status = Number(t.status_id ?? 0);
  let reason: string | null = null;
  if (status !== STATUS.approved && status !== STATUS.authonly && status !== STATUS.settled) reason = LEVEL3_MESSAGES.notApproved;
  else if (!network) reason = LEVEL3_MESSAGES.network(cardLabel);
  // The engine answers a null expand for a card that cannot carry Level 3 (a personal card).
  else if (l3 === null || l3.id === null) reason = LEVEL3_MESSAGES.personal(cardLabel);
  return { ...base, applies: reason === null, reason };
}

/** Managers only (level3.ts declares it; the channel rules enforce it). */
export function createLevel3Handlers(deps: { client: GatewayClient }): Level3Handlers {
  const { client } = deps;
  const load = async (id: string) => level3ViewOf(await client.getTransactionExpanded(id, ['transaction_level3']));

  const guarded = <T>(fn: () => Promise<Result<T>>): Promise<Result<T>> => withGatewayFailure(fn);

  return {
    'level3:view': async ({ transactionId }) => guarded(async () => ok(await load(transactionId))),
    'level3:save': async ({ transactionId, data }) =>
      guarded(async () => {
        const view = await load(transactionId);
        if (!view.applies || !view.network) return fail('conflict', view.reason ?? LEVEL3_MESSAGES.notApproved);
        const v = validateLevel3(view.network, data);
        if (!v.ok) return fail('bad_request', LEVEL3_MESSAGES.invalid, v.errors);
        await client.saveLevel3(transactionId, v.value);
        return ok(await load(transactionId));
      }),
  };
}

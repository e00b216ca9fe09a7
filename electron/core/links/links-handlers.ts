/**
 * `links:transaction`: a transaction's original sale (for a refund), its refunds (for a
 * sale), its batch and its Level 3 data, read in one expanded request plus the refunds
 * filter. Any signed-in user may read the sale, refund and batch links; Level 3 data is a
 * manager's, as `level3:view` is: for a cashier it is neither asked of the gateway nor
 * returned (null).
 */
import type { HandlerMap } from '../../../shared/ipc/contract';
import { ok } from '../../../shared/result';
import { GatewayError, type GatewayClient } from '../../client/gateway-client';
import type { V2Batch, V2Transaction } from '../../client/v2-types';
import { batchInfo } from '../batches/batch-handlers';
import { gatewayFailure } from '../gateway/gateway-messages';
import { level3ViewOf } from '../level3/level3-handlers';
import { toView, TYPE } from '../transactions/transaction-view';
import { callerSession } from '../../ipc/channel-rules';

export function createLinksHandlers(deps: { client: GatewayClient }): Pick<HandlerMap, 'links:transaction'> {
  const { client } = deps;
  return {
    'links:transaction': async ({ id }) => {
      try {
        const manager = callerSession().user.role === 'manager';
        const t = await client.getTransactionExpanded(id, ['transaction_batch', 'previous_transaction', ...(manager ? ['transaction_level3'] : [])]);
        const prev = (t.previous_transaction ?? null) as V2Transaction | null;
        const batch = (t.transaction_batch ?? null) as V2Batch | null;
        const refunds =
          Number(t.type_id) === TYPE.sale
            ? (await client.listTransactions({ previous_transaction_id: t.id, type_id: String(TYPE.refund) }, 1, 100)).items.filter((r) => r.previous_transaction_id === t.id).map((r) => toView(r))
            : [];
        return ok({ original: prev ? toView(prev) : null, refunds, batch: batch ? batchInfo(batch) : null, level3: manager ? level3ViewOf(t) : null });
      } catch (err) {
        if (err instanceof GatewayError) return gatewayFailure(err);
        throw err;
      }
    },
  };
}

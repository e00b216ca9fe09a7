/**
 * The manager's batch handlers: the open batch and the settled history, a batch's
 * totals (approved money only, by card brand and by entry mode), its transactions page
 * by page, settle (a refused settle is an answer, not an error: the screen offers a
 * retry) and a CSV export. Every handler checks the session and the manager role here,
 * whatever the screen shows.
 */
import { BATCH_PAGE_SIZE, type BatchInfo, type BatchState, type HandlerMap, type SettleOutcome } from '../../../shared/ipc/contract';
import { formatMoney } from '../../../shared/payments/money';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { V2Batch, V2Transaction } from '../../client/v2-types';
import { batchRowOf, counted, totalsOfCounted } from '../transactions/approved-money';
import { batchCsv } from './batch-csv';
import { clerkNamesOf } from '../sales/clerk-records';
import { withGatewayFailure } from '../gateway/guarded-call';
import type { UserDirectory } from '../auth/users';

export const BATCH_MESSAGES = {
  settled: (n: number, count: number, net: string) => `Batch ${n} settled: ${count.toLocaleString('en-US')} transactions, $${net} net sent for deposit.`,
  refused:
    'The processor turned this batch down this time. Nothing was lost and nobody was charged twice: the transactions stay in the open batch. Press "Try again" to settle it.',
  stillOpen: 'The gateway did not close the batch. Try again in a moment.',
  notFound: 'This batch is not in the payment gateway.',
} as const;

export interface BatchDeps {
  client: GatewayClient;
  users: UserDirectory;
  productTransactionId: string | undefined;
  locationId: string | undefined;
}

type BatchHandlers = Pick<HandlerMap, 'batches:list' | 'batches:summary' | 'batches:rows' | 'batches:settle' | 'batches:csv'>;

const PROCESSING = { settled: 2, error: 3, processing: 5 } as const;

export function batchInfo(b: V2Batch): BatchInfo {
  const open = b.is_open === true || Number(b.is_open) === 1;
  const status = Number(b.processing_status_id ?? 0);
  let state: BatchState;
  if (open) state = status === PROCESSING.error ? 'failed' : status === PROCESSING.processing ? 'processing' : 'open';
  else state = status === PROCESSING.error ? 'failed' : 'settled';
  return {
    id: b.id,
    number: Number(b.batch_num ?? 0),
    state,
    createdTs: Number(b.created_ts ?? 0),
    closedTs: b.batch_close_ts == null ? null : Number(b.batch_close_ts),
    fileName: b.settlement_file_name ?? null,
  };
}

export function createBatchHandlers(deps: BatchDeps): BatchHandlers {
  const { client, users } = deps;
  const scope = () => ({
    ...(deps.productTransactionId ? { product_transaction_id: deps.productTransactionId } : {}),
    ...(deps.locationId ? { location_id: deps.locationId } : {}),
  });

  // Managers only (batches.ts declares it, and that a settle is audited; the channel rules enforce both).
  const guarded = <T>(fn: () => Promise<Result<T>>): Promise<Result<T>> => withGatewayFailure(fn);

  const transactionsOf = (batchId: string): Promise<V2Transaction[]> => client.listAllTransactions({ transaction_batch_id: batchId });

  return {
    'batches:list': async () =>
      guarded(async () => {
        const open = await client.listBatches({ ...scope(), is_open: '1' }, 1, 1, '-created_ts');
        const closed = await client.listBatches({ ...scope(), is_open: '0' }, 1, 50, '-batch_close_ts');
        return ok({ open: open.items[0] ? batchInfo(open.items[0]) : null, history: closed.items.map(batchInfo) });
      }),

    'batches:summary': async ({ batchId }) =>
      guarded(async () => {
        const batch = batchInfo(await client.getBatch(batchId));
        const list = await transactionsOf(batchId);
        return ok({ batch, totals: totalsOfCounted(list.map(counted)) });
      }),

    'batches:rows': async ({ batchId, page, pageSize = BATCH_PAGE_SIZE }) =>
      guarded(async () => {
        const { items, meta } = await client.listTransactions({ transaction_batch_id: batchId }, page, pageSize, '-created_ts');
        const pageCount = meta.pagination?.pageCount ?? (items.length < pageSize ? page : page + 1);
        return ok({ rows: items.map(batchRowOf), page, pageCount: Math.max(page, pageCount) });
      }),

    'batches:settle': async ({ batchId }) =>
      guarded<SettleOutcome>(async () => {
        const after = batchInfo(await client.settleBatch(batchId));
        if (after.state === 'settled') {
          const totals = totalsOfCounted((await transactionsOf(batchId)).map(counted));
          return ok({ settled: true, message: BATCH_MESSAGES.settled(after.number, totals.sales.count + totals.refunds.count, formatMoney(totals.netCents)), batch: after });
        }
        return ok({ settled: false, message: after.state === 'failed' ? BATCH_MESSAGES.refused : BATCH_MESSAGES.stillOpen, batch: after });
      }),

    'batches:csv': async ({ batchId }) =>
      guarded(async () => {
        const batch = batchInfo(await client.getBatch(batchId));
        if (!batch.id) return fail('not_found', BATCH_MESSAGES.notFound);
        const list = await transactionsOf(batchId);
        return ok({ fileName: `batch-${batch.number}.csv`, csv: batchCsv(list, clerkNamesOf(users.list())) });
      }),
  };
}

/**
 * Transaction batches as a declared resource (framework/resource.ts): the generic list and
 * view, and `settle` as a declared action (`POST /v2/transactionbatches/{id}/settle`). The
 * engine opens and closes batches itself (batch-service.ts), so every field is read-only
 * and there is no create, update or delete. The record answered by the list, the view,
 * settle, the `transaction_batch` expand and batch postbacks is this declaration's
 * serialisation (`batchRecord` in batch-service.ts).
 */
import { MANAGERS, SELLERS } from '../framework/permissions';
import type { ResourceDef } from '../framework/resource';
import type { BatchService } from './batch-service';
import type { GroupCommitWriter } from './group-commit-writer';

const always = { readOnly: true, alwaysSet: true } as const;

/** What settle needs from the running payments module (created after the declaration). */
export interface BatchRuntime {
  writer: GroupCommitWriter;
  batches: BatchService;
}

export function transactionBatchResource(runtime: () => BatchRuntime): ResourceDef {
  return {
    name: 'transactionbatch',
    plural: 'transactionbatches',
    table: 'transaction_batches',
    schemaName: 'TransactionBatch',
    words: { one: 'transaction batch', many: 'transaction batches' },
    about: 'Card batches; settle closes one.',
    fields: {
      batch_num: { type: 'integer', ...always },
      // Not a filter parameter of its own: the location scope reads `location_id` (framework/list.ts).
      location_id: { type: 'string', ...always, filter: false },
      product_transaction_id: { type: 'string', ...always },
      /** 1 open, 2 settled, 3 failed. */
      processing_status_id: { type: 'integer', ...always },
      is_open: { type: 'integer', enum: [0, 1], ...always },
      batch_close_ts: { type: 'integer', readOnly: true },
      settlement_file_name: { type: 'string', readOnly: true },
      created_ts: { type: 'integer', ...always },
      modified_ts: { type: 'integer', ...always },
    },
    scope: { kind: 'column', column: 'location_id' },
    defaultSort: '-created_ts',
    methods: ['list', 'view'],
    // Reading money records is for whoever sells (an installer moves no money); settling is a manager's.
    allow: { list: SELLERS, view: SELLERS },
    actions: {
      settle: {
        allow: MANAGERS,
        summary: 'Settle (close) a batch',
        answer: 'The batch after settling.',
        async run({ req, row }) {
          const r = runtime();
          await r.writer.submit(() => r.batches.settle(String(row.id), req.auth.userId));
        },
      },
    },
  };
}

/**
 * Level 3 (`/v2/transactionlevel3s`) as a declared resource (framework/resource.ts):
 * generic create, view and delete, and the document derived from this declaration.
 * Every POST replaces all earlier data of the transaction (a value left out is cleared):
 * the record keeps its id and created_ts, level3_data is overwritten, and the answer is
 * 201 either way. Which transactions may carry Level 3 and the network's rules are
 * level3-service.ts and shared/payments/level3-schema.ts (the renderer's form uses the
 * same schemas); delete answers 422 once the transaction settled.
 *
 * Simplification: the generic routes write through the engine's connection (one SQLite
 * transaction with these hooks), not the payments module's group-commit writer; both
 * share the WAL, and the engine connection commits with synchronous=FULL.
 */
import { z } from 'zod';
import { mastercardLevel3DataSchema, validateLevel3, visaLevel3DataSchema } from '../../../shared/payments/level3-schema';
import { ApiError, MSG, fmt } from '../framework/errors';
import { MANAGERS, SELLERS } from '../framework/permissions';
import type { ResourceDef } from '../framework/resource';
import type { Level3Service } from './level3-service';
import { PAY_MSG } from './payment-messages';
import type { TransactionService } from './transaction-service';

/** What the hooks need from the running payments module (created after the declaration). */
export interface Level3Runtime {
  transactions: TransactionService;
  level3: Level3Service;
}

function toSchema(s: z.ZodType): Record<string, unknown> {
  const out = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** The document's level3_data: Visa's or Mastercard's shape (which one the transaction's card decides). */
export const LEVEL3_DATA_SCHEMA = { anyOf: [{ title: 'Visa', ...toSchema(visaLevel3DataSchema) }, { title: 'Mastercard', ...toSchema(mastercardLevel3DataSchema) }] };

export function level3Resource(runtime: () => Level3Runtime): ResourceDef {
  return {
    name: 'transactionlevel3',
    plural: 'transactionlevel3s',
    table: 'transaction_level3s',
    schemaName: 'TransactionLevel3',
    words: { one: 'Level 3 record', many: 'Level 3 records' },
    about: 'Level 3 line items of a Visa/Mastercard sale.',
    fields: {
      transaction_id: { type: 'string', required: true, alwaysSet: true },
      level3_data: { type: 'json', required: true, alwaysSet: true, jsonSchema: LEVEL3_DATA_SCHEMA },
      // The transaction's location: it scopes the record; set from the transaction, never sent nor returned.
      location_id: { type: 'string', readOnly: true, writeOnly: true },
      created_ts: { type: 'integer', readOnly: true, alwaysSet: true },
      modified_ts: { type: 'integer', readOnly: true, alwaysSet: true },
    },
    scope: { kind: 'column', column: 'location_id' },
    defaultSort: '-created_ts',
    methods: ['create', 'view', 'delete'],
    // The counter sends a commercial card's Level 3 after the sale; deleting it is a manager's.
    allow: { create: SELLERS, view: SELLERS, delete: MANAGERS },

    beforeInsert({ ctx, auth, input }) {
      const r = runtime();
      const t = r.transactions.visibleRow(String(input.values.transaction_id), auth);
      if (!t) throw new ApiError(422, { transaction_id: [fmt(MSG.INVALID, { attribute: 'Transaction Id' })] });
      const network = r.level3.networkOf(t);
      if (!network) throw new ApiError(422, { transaction_id: [PAY_MSG.L3_CANNOT_CARRY] });
      const v = validateLevel3(network, input.values.level3_data);
      if (!v.ok) throw new ApiError(422, v.errors);
      input.values.level3_data = v.value;
      input.values.location_id = t.location_id;
      // A new POST replaces the earlier data: same id and created_ts, in this same write.
      const earlier = ctx.stmt('SELECT id, created_ts FROM transaction_level3s WHERE transaction_id = ?').get(t.id) as { id: string; created_ts: number } | undefined;
      if (earlier) {
        ctx.stmt('DELETE FROM transaction_level3s WHERE id = ?').run(earlier.id);
        input.values.id = earlier.id;
        input.values.created_ts = earlier.created_ts;
      }
    },

    beforeDelete({ ctx, existing }) {
      const t = ctx.stmt('SELECT settled FROM transactions WHERE id = ?').get(existing.transaction_id) as { settled: number } | undefined;
      if (t?.settled === 1) throw new ApiError(422, { id: [PAY_MSG.L3_DELETE_SETTLED] });
    },
  };
}

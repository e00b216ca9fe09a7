/**
 * GET /v2/transactions: the list, kept fast at a million rows. Stored docs are joined
 * as strings (no parse/serialise per row) unless an expand asks for related records.
 * Filters on indexed columns are exact (ids, codes, last_four, first_six), amounts take
 * decimal strings and `lo|hi`, created_ts/modified_ts take the named ranges too; any
 * other record field filters by substring on the stored record (a scan: fine for small
 * result sets, not indexed).
 */
import type { FastifyRequest } from 'fastify';
import type { EngineContext } from '../framework/context';
import { RECORD_FIELDS } from './transaction-doc';
import type { RecordStorage } from './record-storage';
import { listMetaOf, locationScope, planList, type ListColumn, type ListSpec } from '../framework/list';

const columns: Record<string, ListColumn> = {
  id: { sql: 'id', kind: 'exact' },
  location_id: { sql: 'location_id', kind: 'exact' },
  product_transaction_id: { sql: 'product_transaction_id', kind: 'exact' },
  transaction_api_id: { sql: 'transaction_api_id', kind: 'exact' },
  payment_method: { sql: 'payment_method', kind: 'exact' },
  account_vault_id: { sql: 'account_vault_id', kind: 'exact' },
  contact_id: { sql: 'contact_id', kind: 'exact' },
  previous_transaction_id: { sql: 'previous_transaction_id', kind: 'exact' },
  transaction_batch_id: { sql: 'batch_id', kind: 'exact' },
  first_six: { sql: 'first_six', kind: 'exact' },
  last_four: { sql: 'last_four', kind: 'exact' },
  status_id: { sql: 'status_id', kind: 'number' },
  type_id: { sql: 'type_id', kind: 'number' },
  reason_code_id: { sql: 'reason_code_id', kind: 'number' },
  transaction_amount: { sql: 'amount', kind: 'money' },
  auth_amount: { sql: 'auth_amount', kind: 'money' },
  created_ts: { sql: 'created_ts', kind: 'timestamp' },
  modified_ts: { sql: 'modified_ts', kind: 'timestamp' },
  // Ringup extension: how the id ends (the counter's receipts print its last 8 characters as "Ref").
  id_suffix: { sql: 'id', kind: 'suffix', sortable: false },
};
// Every other record field: substring on the stored document (not indexed).
for (const f of RECORD_FIELDS) {
  if (!columns[f]) columns[f] = { sql: `json_extract(doc, '$.${f}')`, kind: 'text', sortable: !['custom_data', 'additional_amounts', 'tags'].includes(f) };
}

export const TRANSACTION_LIST: ListSpec = { table: 'transactions', columns, defaultSort: '-created_ts' };

export type Expander = (doc: Record<string, unknown>, row: { id: string }) => void;

export function listTransactions(
  ctx: EngineContext,
  req: FastifyRequest,
  expand: (names: string[]) => Expander | undefined,
  storage: RecordStorage,
  locationsWithTransactions: ReadonlySet<string>,
  countOf?: (locationId: string) => number,
): Buffer {
  const scope = req.auth.locationIds.filter((l) => locationsWithTransactions.has(l));
  const plan = planList(TRANSACTION_LIST, req, ctx.clock, locationScope(req, req.auth, scope));
  const q = (req.query ?? {}) as Record<string, unknown>;
  // Unfiltered lists count from the per-location counters (a COUNT over a million index
  // entries would cost more than fetching the page itself).
  const total =
    plan.filterCount === 0 && countOf
      ? plan.scopedLocations.reduce((n, l) => n + countOf(l), 0)
      : (ctx.stmt(`SELECT COUNT(*) AS n FROM transactions WHERE ${plan.where}`).get(...plan.params) as { n: number }).n;
  const names = typeof q.expand === 'string' && q.expand ? q.expand.split(',') : [];
  const ex = names.length ? expand(names) : undefined;
  const base = `${ctx.origin}/v2/transactions/`;
  const sql = `FROM transactions WHERE ${plan.where} ORDER BY ${plan.orderBy} LIMIT ? OFFSET ?`;
  const args = [...plan.params, plan.pageSize, (plan.page - 1) * plan.pageSize];
  const meta = Buffer.from(`],"meta":${JSON.stringify(listMetaOf(ctx.origin, req, plan, total))}}`);
  if (ex) {
    const rows = ctx.stmt(`SELECT id, doc, doc_keys ${sql}`).all(...args) as { id: string; doc: string; doc_keys: string | null }[];
    const parts = rows.map((r) => {
      const d = storage.parse(r.doc, r.doc_keys);
      ex(d, r);
      d._links = { self: { href: base + r.id } };
      return JSON.stringify(d);
    });
    return Buffer.concat([OPEN, Buffer.from(parts.join(',')), meta]);
  }
  // The stored records go out as bytes: no UTF-8 decode into JS strings and back; each
  // record's null keys are one cached buffer per key set (record-storage.ts).
  const rows = ctx.stmt(`SELECT id, CAST(doc AS BLOB) AS doc, doc_keys ${sql}`).all(...args) as { id: string; doc: Buffer; doc_keys: string | null }[];
  const chunks: Buffer[] = [OPEN];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as { id: string; doc: Buffer; doc_keys: string | null };
    if (i > 0) chunks.push(COMMA);
    chunks.push(r.doc.subarray(0, r.doc.length - 1), storage.suffixBytes(r.doc_keys), Buffer.from(`,"_links":{"self":{"href":"${base}${r.id}"}}}`));
  }
  chunks.push(meta);
  return Buffer.concat(chunks);
}

const OPEN = Buffer.from('{"transactions":[');
const COMMA = Buffer.from(',');

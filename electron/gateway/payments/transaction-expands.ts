/**
 * The documented transaction expands besides the payment resources' own (level 3, vault,
 * batch, contact, previous transaction, in payments-module.ts): created_user, location,
 * product_transaction, tags, signature, quick_invoice, recurring, reason_code, status,
 * type and changelogs. An expand whose resource this engine does not have yet answers
 * null (single) or [] (lists). created_user goes through the user resource's serialiser,
 * which never returns user_api_key, user_hash_key or password data.
 */
import type { EngineContext } from '../framework/context';
import type { Row } from '../framework/resource';
import { reasonCodeSentence } from '../../../shared/payments/reason-codes';
import { verbiageFor } from './processor-simulator';
import { changelogsOf } from './transaction-changelog';
import type { TransactionRow } from './transaction-service';

export const STATUS_TITLES: Record<number, string> = {
  101: 'Approved', 102: 'Authonly', 111: 'Refunded', 121: 'Avsonly', 131: 'Pending Origination', 132: 'Originating',
  133: 'Originated', 134: 'Settled', 135: 'Reserved', 136: 'Rejected', 201: 'Voided', 301: 'Declined', 331: 'Charged Back',
};
export const TYPE_TITLES: Record<number, string> = { 20: 'Sale', 21: 'Avs Only', 30: 'Refund', 40: 'Credit', 50: 'Debit' };

export const TRANSACTION_EXTRA_EXPANDS = [
  'created_user', 'location', 'product_transaction', 'tags', 'signature', 'quick_invoice', 'recurring', 'reason_code', 'status', 'type', 'changelogs',
] as const;

/** A record of another module's resource by id, serialised by its declaration; null when absent. */
function recordOf(ctx: EngineContext, resource: string, id: unknown): Row | null {
  if (id === null || id === undefined || id === '') return null;
  try {
    const def = ctx.resource(resource);
    const row = ctx.getById(def, id);
    return row ? ctx.serialize(def, row, undefined) : null;
  } catch {
    return null; // the resource is not part of this engine (yet)
  }
}

function tagsOf(ctx: EngineContext, t: TransactionRow, titles: unknown): Row[] {
  if (!Array.isArray(titles) || titles.length === 0) return [];
  let def: ReturnType<EngineContext['resource']> | undefined;
  try {
    def = ctx.resource('tag');
  } catch {
    def = undefined;
  }
  return titles.map((title) => {
    const row = def ? (ctx.stmt('SELECT * FROM tags WHERE location_id = ? AND title = ?').get(t.location_id, title) as Row | undefined) : undefined;
    return row && def ? ctx.serialize(def, row, undefined) : { id: null, title, location_id: t.location_id };
  });
}

/** A user as another user's record shows it: never keys, hashes or password data. */
const USER_SECRET = /api_key|hash_key|password|secret|_hash$/;
function publicUser(u: Row | null): Row | null {
  if (!u) return null;
  return Object.fromEntries(Object.entries(u).filter(([k]) => !USER_SECRET.test(k) || k === 'requires_new_password'));
}

export function applyExtraExpands(ctx: EngineContext, want: ReadonlySet<string>, d: Record<string, unknown>, t: TransactionRow): void {
  if (want.has('created_user')) d.created_user = publicUser(recordOf(ctx, 'user', d.created_user_id));
  if (want.has('location')) d.location = recordOf(ctx, 'location', t.location_id);
  if (want.has('product_transaction')) d.product_transaction = recordOf(ctx, 'product_transaction', t.product_transaction_id);
  if (want.has('tags')) d.tags = tagsOf(ctx, t, d.tags);
  if (want.has('signature')) d.signature = null; // no signature capture in this engine
  if (want.has('quick_invoice')) d.quick_invoice = recordOf(ctx, 'quickinvoice', d.quick_invoice_id);
  if (want.has('recurring')) d.recurring = recordOf(ctx, 'recurring', d.recurring_id);
  if (want.has('reason_code')) d.reason_code = { id: t.reason_code_id, code: verbiageFor(t.reason_code_id), description: reasonCodeSentence(t.reason_code_id) };
  if (want.has('status')) d.status = { id: t.status_id, title: STATUS_TITLES[t.status_id] ?? null };
  if (want.has('type')) d.type = { id: t.type_id, title: TYPE_TITLES[t.type_id] ?? null };
  if (want.has('changelogs')) d.changelogs = changelogsOf(ctx, t.id);
}

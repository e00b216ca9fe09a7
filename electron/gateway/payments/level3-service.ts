/**
 * Level 3 (`/v2/transactionlevel3s`). Every POST replaces all earlier data of the
 * transaction (a value left out is cleared): the row keeps its id, level3_data is
 * overwritten. The network's rules come from shared/payments/level3-schema.ts (the
 * renderer's form uses the same schemas). A transaction can carry Level 3 when it is an
 * approved (101) or authorised (102) Visa/Mastercard sale on a commercial (corporate or
 * purchasing) card and its product transaction allows Level 3; otherwise POST answers 422 and the transaction's
 * `transaction_level3` expand is null. Delete answers 422 once the transaction settled.
 */
import type { FastifyRequest } from 'fastify';
import { validateLevel3 } from '../../../shared/payments/level3-schema';
import type { AuthInfo, EngineContext } from '../framework/context';
import { ApiError, MSG, fmt, general, notFound } from '../framework/errors';
import type { GroupCommitWriter } from './group-commit-writer';
import { present, type Body } from './input-fields';
import type { MerchantLookups } from './merchant-lookups';
import { isCommercialBin } from './bin-info';
import { PAY_MSG } from './payment-messages';
import { STATUS, TYPE } from './processor-simulator';
import type { TransactionRow, TransactionService } from './transaction-service';

interface L3Row {
  id: string;
  transaction_id: string;
  location_id: string;
  level3_data: string;
  is_default: number;
  created_ts: number;
  modified_ts: number;
}

export class Level3Service {
  constructor(
    private readonly ctx: EngineContext,
    private readonly writer: GroupCommitWriter,
    private readonly lookups: MerchantLookups,
    private readonly txns: TransactionService,
  ) {}

  networkOf(t: TransactionRow): 'visa' | 'mastercard' | null {
    if (t.payment_method !== 'cc' || t.type_id !== TYPE.sale) return null;
    if (t.status_id !== STATUS.approved && t.status_id !== STATUS.authonly) return null;
    if (t.brand !== 'visa' && t.brand !== 'mastercard') return null;
    if (!isCommercialBin(t.first_six ?? undefined)) return null;
    const pt = t.product_transaction_id ? this.lookups.productTransaction(t.product_transaction_id) : undefined;
    if (pt && !pt.level3_allow) return null;
    return t.brand;
  }

  serialize(r: L3Row): Record<string, unknown> {
    return {
      id: r.id,
      transaction_id: r.transaction_id,
      level3_data: JSON.parse(r.level3_data) as unknown,
      created_ts: r.created_ts,
      modified_ts: r.modified_ts,
      _links: { self: { href: `${this.ctx.origin}/v2/transactionlevel3s/${r.id}` } },
    };
  }

  /** The `transaction_level3` expand of a transaction. */
  expandFor(t: TransactionRow): Record<string, unknown> | null {
    if (!this.networkOf(t)) return null;
    const r = this.ctx.stmt('SELECT * FROM transaction_level3s WHERE transaction_id = ?').get(t.id) as L3Row | undefined;
    return r ? this.serialize(r) : { id: null, transaction_id: t.id, level3_data: null };
  }

  async upsert(req: FastifyRequest): Promise<Record<string, unknown>> {
    const auth = req.auth;
    const body = req.body as Body | null;
    const inner = body && typeof body === 'object' ? (body.transactionlevel3 as Body | undefined) : undefined;
    if (!inner || typeof inner !== 'object' || Array.isArray(inner)) throw general(422, fmt(MSG.WRAPPER_MISSING, { wrapper: 'transactionlevel3' }));
    if (!present(inner.transaction_id)) throw new ApiError(422, { transaction_id: [PAY_MSG.L3_TRANSACTION_BLANK] });
    if (typeof inner.transaction_id !== 'string') throw new ApiError(422, { transaction_id: [fmt(MSG.NOT_STRING, { attribute: 'Transaction Id' })] });
    const t = this.txns.visibleRow(inner.transaction_id, auth);
    if (!t) throw new ApiError(422, { transaction_id: [fmt(MSG.INVALID, { attribute: 'Transaction Id' })] });
    const network = this.networkOf(t);
    if (!network) throw new ApiError(422, { transaction_id: [PAY_MSG.L3_CANNOT_CARRY] });
    if (inner.level3_data === undefined || inner.level3_data === null) throw new ApiError(422, { level3_data: [PAY_MSG.L3_DATA_BLANK] });
    const v = validateLevel3(network, inner.level3_data);
    if (!v.ok) throw new ApiError(422, v.errors);
    const now = this.ctx.clock.now();
    const row = await this.writer.submit(() => {
      const existing = this.ctx.stmt('SELECT id FROM transaction_level3s WHERE transaction_id = ?').get(t.id) as { id: string } | undefined;
      if (existing) {
        this.ctx.stmt('UPDATE transaction_level3s SET level3_data = ?, is_default = 0, modified_ts = ? WHERE id = ?').run(JSON.stringify(v.value), now, existing.id);
      } else {
        this.ctx
          .stmt('INSERT INTO transaction_level3s (id, transaction_id, location_id, level3_data, is_default, created_ts, modified_ts) VALUES (?, ?, ?, ?, 0, ?, ?)')
          .run(this.ctx.newId(), t.id, t.location_id, JSON.stringify(v.value), now, now);
      }
      return this.ctx.stmt('SELECT * FROM transaction_level3s WHERE transaction_id = ?').get(t.id) as L3Row;
    });
    return this.serialize(row);
  }

  private find(id: string, auth: AuthInfo): L3Row {
    const r = this.ctx.stmt('SELECT * FROM transaction_level3s WHERE id = ?').get(id) as L3Row | undefined;
    if (!r || !auth.locationSet.has(r.location_id)) throw notFound();
    return r;
  }

  view(req: FastifyRequest, id: string): Record<string, unknown> {
    return this.serialize(this.find(id, req.auth));
  }

  async remove(req: FastifyRequest, id: string): Promise<void> {
    const r = this.find(id, req.auth);
    await this.writer.submit(() => {
      const t = this.txns.getRow(r.transaction_id);
      if (t && t.settled === 1) throw new ApiError(422, { id: [PAY_MSG.L3_DELETE_SETTLED] });
      this.ctx.stmt('DELETE FROM transaction_level3s WHERE id = ?').run(r.id);
    });
  }
}

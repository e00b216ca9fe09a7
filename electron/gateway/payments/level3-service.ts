/**
 * Which transactions carry Level 3, and their `transaction_level3` expand. A transaction
 * can carry Level 3 when it is an approved (101) or authorised (102) Visa/Mastercard sale
 * on a commercial (corporate or purchasing) card and its product transaction allows
 * Level 3; otherwise POST answers 422 and the expand is null. The routes are the declared
 * resource (level3-resource.ts).
 */
import type { EngineContext } from '../framework/context';
import type { Row } from '../framework/resource';
import type { MerchantLookups } from './merchant-lookups';
import { isCommercialBin } from './bin-info';
import { STATUS, TYPE } from './processor-simulator';
import type { TransactionRow } from './transaction-service';

export class Level3Service {
  constructor(
    private readonly ctx: EngineContext,
    private readonly lookups: MerchantLookups,
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

  /** The `transaction_level3` expand of a transaction. */
  expandFor(t: TransactionRow): Record<string, unknown> | null {
    if (!this.networkOf(t)) return null;
    const r = this.ctx.stmt('SELECT * FROM transaction_level3s WHERE transaction_id = ?').get(t.id) as Row | undefined;
    return r ? this.ctx.serialize(this.ctx.resource('transactionlevel3'), r, undefined) : { id: null, transaction_id: t.id, level3_data: null };
  }
}

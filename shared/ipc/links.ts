/**
 * The `links:*` channel: what a transaction is linked to — the original sale of a refund,
 * the refunds of a sale, its batch, its Level 3 data — so the transaction detail can
 * lead from one to the other.
 */
import { z } from 'zod';
import type { BatchInfo } from './batches';
import { idSchema } from './common';
import type { Level3View } from './level3';
import type { TransactionView } from './transactions';

export interface TransactionLinks {
  original: TransactionView | null;
  refunds: TransactionView[];
  batch: BatchInfo | null;
  /** Managers only, as `level3:view` (null for a cashier). */
  level3: Level3View | null;
}

export const linksHandlers = {
  'links:transaction': z.strictObject({ id: idSchema }),
} as const;

export interface LinksResults {
  'links:transaction': TransactionLinks;
}

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
import { COUNTER, type ChannelDeclarations } from './channel-declaration';

export interface TransactionLinks {
  original: TransactionView | null;
  refunds: TransactionView[];
  batch: BatchInfo | null;
  /** Managers only, as `level3:view` (null for a cashier). */
  level3: Level3View | null;
}

export const linksHandlers = {
  'links:transaction': { args: z.strictObject({ id: idSchema }), access: COUNTER, effect: 'read', audit: 'none' },
} as const satisfies ChannelDeclarations;

export interface LinksResults {
  'links:transaction': TransactionLinks;
}

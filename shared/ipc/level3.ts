/**
 * The `level3:*` channels: a transaction's Level 3 data (commercial cards) and saving it.
 * The data is checked in the core with the engine's own schemas
 * (shared/payments/level3-schema.ts), which the form also runs as the user types.
 */
import { z } from 'zod';
import type { Level3Data, Level3Network } from '../payments/level3-schema';
import { idSchema } from './common';
import { MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

export interface Level3View {
  transactionId: string;
  /** Whether Level 3 data can be added to this transaction. */
  applies: boolean;
  /** Why not, in plain words, when it does not apply. */
  reason: string | null;
  network: Level3Network | null;
  cardLabel: string;
  maxLineItems: number;
  /** The saved data (a commercial card's approval brings one default line for the amount). */
  data: Level3Data | null;
}

export const level3ViewArgsSchema = z.strictObject({ transactionId: idSchema });
/** The data's shape is checked against the card network's schema in the core (the network is known there). */
export const level3SaveArgsSchema = z.strictObject({ transactionId: idSchema, data: z.record(z.string(), z.unknown()) });

export const level3Handlers = {
  'level3:view': { args: level3ViewArgsSchema, access: MANAGER, effect: 'read', audit: 'none' },
  'level3:save': { args: level3SaveArgsSchema, access: MANAGER, effect: 'records', audit: audits(['level3'], ['transaction', 'detail']) },
} as const satisfies ChannelDeclarations;

export interface Level3Results {
  'level3:view': Level3View;
  'level3:save': Level3View;
}

/**
 * The `queue:*` channels (issue 13): the offline store-and-forward queue. Sales taken
 * while the gateway could not be reached wait here (on disk, card data encrypted) and are
 * forwarded by themselves when it answers again. The rules (caps, keyed, approval,
 * expiry) are store settings (settings.ts).
 */
import { z } from 'zod';
import { idSchema } from './common';
import { COUNTER, MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

/**
 * - `pending`: waiting to be forwarded (card data encrypted on disk).
 * - `approved` / `declined`: the gateway's answer once forwarded (card data erased).
 * - `error`: the gateway refused the request itself (not a decline; card data erased).
 * - `expired`: not forwarded within the expiry window; never sent (card data erased).
 * - `withdrawn`: cancelled at the counter before it was sent (a cart cancelled); never sent (card data erased).
 */
export type QueueItemState = 'pending' | 'approved' | 'declined' | 'error' | 'expired' | 'withdrawn';

/** How the card was presented: K keyed, S swiped, C chip, P contactless (the interface's entry_mode_id). */
export type QueueEntryMode = 'K' | 'S' | 'C' | 'P';

export interface QueueItem {
  /** Queue order (1, 2, 3 …): forwarding follows it. */
  seq: number;
  /** The sale's transaction_api_id, fixed before the first attempt. */
  clientRef: string;
  amountCents: number;
  taxCents: number;
  tipCents: number;
  cardBrand: string;
  lastFour: string;
  /** The ZIP the customer gave (to find them again if the sale is declined later); empty for a card read on the terminal. */
  zip: string;
  entryMode: QueueEntryMode;
  /** What the customer gave at the counter to be reached if the sale is declined later (optional; empty when not given). */
  customerName: string;
  /** A phone number or an e-mail address. */
  customerContact: string;
  clerkName: string;
  /** Unix seconds. */
  queuedTs: number;
  /** Unix seconds: not forwarded by then, it expires. */
  expiresTs: number;
  state: QueueItemState;
  attempts: number;
  /** The last forwarding failure or the gateway's answer, in plain words. */
  message: string | null;
  /** The gateway's transaction id once forwarded. */
  transactionId: string | null;
  forwardedTs: number | null;
  /**
   * The screen that took it showed "Approved offline" (issue 20, point 3). A waiting sale not
   * acknowledged is never sent: it is shown at the next sign-in, to be kept or cancelled.
   */
  acknowledged: boolean;
}

export interface QueueStatus {
  pendingCount: number;
  pendingCents: number;
  /** Forwarding is running now. */
  forwarding: boolean;
  /** Of the sales pending when this forwarding run started, how many are done. */
  progress: { done: number; total: number } | null;
  /** Pending sales that expire within the store's alert window. */
  expiringSoonCount: number;
  /** Unix seconds of the earliest expiry among pending sales. */
  nextExpiryTs: number | null;
  /** Forwarded sales the gateway declined (or refused, or that expired): the manager collects another way. */
  problemCount: number;
}

export interface QueueList {
  status: QueueStatus;
  /** Newest first, at most 500. */
  items: QueueItem[];
}

/** A phone number (7 to 15 digits, with spaces, dashes, dots, brackets or a leading +) or an e-mail address. */
const PHONE = /^\+?[\d\s().-]{7,24}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const CUSTOMER_CONTACT_ERROR = 'Type a phone number or an e-mail address, or leave it empty.';

/** The customer's details on a sale approved offline: optional, for reaching them if the card is declined once sent. */
export const queueCustomerSchema = z.strictObject({
  clientRef: idSchema,
  name: z.string().trim().max(64, 'A name is at most 64 characters.'),
  contact: z
    .string()
    .trim()
    .max(64, 'At most 64 characters.')
    .refine((c) => c === '' || EMAIL.test(c) || (PHONE.test(c) && (c.match(/\d/g)?.length ?? 0) >= 7 && (c.match(/\d/g)?.length ?? 0) <= 15), CUSTOMER_CONTACT_ERROR),
});

export const queueHandlers = {
  /** Any signed-in user (the status bar). */
  'queue:status': { args: z.void(), access: 'signed-in', effect: 'read', audit: 'none', copiedFolder: 'answers' },
  /** Managers: every queued and forwarded sale with its state. */
  'queue:list': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none' },
  /** Managers: try forwarding now instead of waiting for the backoff. */
  'queue:forward-now': { args: z.void(), access: MANAGER, effect: 'money', audit: audits(['offline-forward'], ['amount', 'detail']) },
  /** Any counter user: the customer's name and phone or e-mail on a sale just approved offline. */
  'queue:set-customer': { args: queueCustomerSchema, access: COUNTER, effect: 'records', audit: 'none' },
  /**
   * The window and user that took a sale offline (or a manager), once its screen has shown
   * "Approved offline": `id` is the sale's id as that screen has it (offline-…, shared/offline-ref.ts).
   * Until then the queue never sends it (issue 20, point 3).
   */
  'queue:acknowledge': { args: z.strictObject({ id: idSchema }), access: COUNTER, effect: 'records', audit: 'none' },
  /** Any counter user: waiting sales whose screen never said "Approved offline" (a power cut, a window gone), oldest first. */
  'queue:unconfirmed': { args: z.void(), access: COUNTER, effect: 'read', audit: 'none' },
  /**
   * Any counter user, for a sale `queue:unconfirmed` lists: `keep` (the customer was told: it is
   * acknowledged and sent) or `cancel` (never charged: withdrawn, card data erased). Audited with who chose.
   */
  'queue:resolve-unconfirmed': { args: z.strictObject({ clientRef: idSchema, choice: z.enum(['keep', 'cancel']) }), access: COUNTER, effect: 'money', audit: audits(['offline-unconfirmed'], ['amount', 'transaction', 'detail']) },
} as const satisfies ChannelDeclarations;

export interface QueueResults {
  'queue:status': QueueStatus;
  'queue:list': QueueList;
  'queue:forward-now': QueueStatus;
  'queue:set-customer': QueueItem;
  'queue:acknowledge': QueueItem;
  'queue:unconfirmed': QueueItem[];
  'queue:resolve-unconfirmed': { item: QueueItem; message: string };
}

export interface QueueEventPayloads {
  /** The queue changed (a sale queued, forwarded, expired; forwarding started or stopped). */
  'queue:status': QueueStatus;
}
export const queueEventNames = ['queue:status'] as const;

/**
 * Store settings: what a manager sets once for the counter (receipt header, sales tax,
 * tips, the amount guards, the idle lock). Declared once here — the zod schema checks
 * the settings screen's form, the IPC argument and what the core stores; the defaults
 * are what a fresh data folder starts with.
 *
 * Amounts are integer cents; percents are whole numbers; the tax rate is in basis
 * points (825 = 8.25 %).
 */
import { z } from 'zod';
import { MAX_AMOUNT_CENTS } from './common';
import { TIP_BASES } from '../payments/tip-suggestions';
import { MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

/** An amount threshold: more than $0.00, at most the largest sale. */
const thresholdSchema = z
  .number()
  .int()
  .min(1, 'Enter an amount above $0.00.')
  .max(MAX_AMOUNT_CENTS, 'An amount is at most $999,999.99.');

const percentSchema = z.number().int('A tip percent is a whole number.').min(1, 'A tip percent is at least 1.').max(100, 'A tip percent is at most 100.');

export const storeSettingsSchema = z
  .strictObject({
    storeName: z.string().trim().min(1, 'Enter the store name.').max(60, 'The store name is at most 60 characters.'),
    /** Lines printed under the name on receipts (street, city). */
    storeAddress: z.string().trim().max(120, 'The address is at most 120 characters.'),
    storePhone: z.string().trim().max(30, 'The phone number is at most 30 characters.').regex(/^[0-9 +().-]*$/, 'A phone number has digits, spaces and + ( ) . - only.'),
    /** Basis points: 825 = 8.25 %. 0 means no sales tax. */
    taxRateBasisPoints: z.number().int().min(0, 'A sales tax rate is not negative.').max(3000, 'A sales tax rate is at most 30 %.'),
    /** Whether a new sale starts with tax switched on. */
    taxOnByDefault: z.boolean(),
    tipsEnabled: z.boolean(),
    /** The three percents offered on screen (the terminal's own, when one is set up, win). */
    tipPercents: z.array(percentSchema).length(3, 'Give exactly three tip percents.'),
    /**
     * What a tip percent is taken of, everywhere a tip is offered (sale screen, cart, terminal,
     * offline terminal sales): the amount before tax (the default) or after (shared/payments/tip-suggestions.ts).
     */
    tipBase: z.enum(TIP_BASES),
    /** Square's smart tips: three flat amounts instead of the percents while the tip base is below the threshold. */
    smartTips: z.strictObject({
      enabled: z.boolean(),
      thresholdCents: thresholdSchema,
      amountsCents: z.array(z.number().int().min(1, 'A flat tip is more than $0.00.').max(100_000, 'A flat tip is at most $1,000.00.')).length(3, 'Give exactly three flat tips.'),
    }),
    /** Sales above this ask for a second confirmation that shows the amount large. */
    confirmAboveCents: thresholdSchema,
    /** Sales above this are refused. */
    hardCapCents: thresholdSchema,
    /** A custom tip above this share of the amount asks for confirmation (percent). */
    tipConfirmPercent: z.number().int().min(1, 'The tip check is at least 1 %.').max(1000, 'The tip check is at most 1000 %.'),
    /** Idle minutes before the counter locks back to the sign-in screen. */
    idleLockMinutes: z.number().int().min(1, 'The idle lock is at least 1 minute.').max(240, 'The idle lock is at most 4 hours.'),
    /* Offline store-and-forward rules (issue 13; electron/core/queue/offline-queue.ts). */
    /** One sale taken offline is at most this. */
    offlinePaymentCapCents: thresholdSchema,
    /** All sales waiting in the offline queue together are at most this. */
    offlineTotalCapCents: thresholdSchema,
    /** Keyed (card-not-present) cards may be taken offline; off by default: card-present only. */
    offlineAllowKeyed: z.boolean(),
    /** Offline sales above this need a manager signed in at the counter; 0 means never. */
    offlineApprovalAboveCents: z.number().int().min(0, 'Enter 0.00 or more.').max(MAX_AMOUNT_CENTS, 'An amount is at most $999,999.99.'),
    /** A queued sale not forwarded within this many hours expires (is not sent; listed for the manager). */
    offlineExpiryHours: z.number().int().min(1, 'The expiry is at least 1 hour.').max(168, 'The expiry is at most 168 hours (7 days).'),
    /** The alert shows this many hours before a queued sale expires. */
    offlineAlertHours: z.number().int().min(1, 'The alert is at least 1 hour ahead.').max(168, 'The alert is at most 168 hours ahead.'),
    /** The cash drawer seen open longer than this is flagged in the status bar and the audit log (issue 23, point 2). */
    drawerOpenAlertSeconds: z.number().int('Type a whole number of seconds.').min(10, 'The drawer check is at least 10 seconds.').max(3600, 'The drawer check is at most 3600 seconds (1 hour).'),
  })
  .refine((s) => s.confirmAboveCents <= s.hardCapCents, {
    message: 'The confirmation threshold must not be above the hard cap.',
    path: ['confirmAboveCents'],
  })
  .refine((s) => s.offlinePaymentCapCents <= s.offlineTotalCapCents, {
    message: 'The offline cap per sale must not be above the offline total cap.',
    path: ['offlinePaymentCapCents'],
  })
  // Equal means: alert as soon as a sale waits.
  .refine((s) => s.offlineAlertHours <= s.offlineExpiryHours, {
    message: 'The alert comes at most as early as the expiry window is long.',
    path: ['offlineAlertHours'],
  })
  .refine((s) => s.hardCapCents <= MAX_AMOUNT_CENTS, { message: 'The hard cap is too large.', path: ['hardCapCents'] });

export type StoreSettings = z.infer<typeof storeSettingsSchema>;

export const DEFAULT_STORE_SETTINGS: StoreSettings = {
  storeName: 'Ringup Store',
  storeAddress: '',
  storePhone: '',
  taxRateBasisPoints: 825,
  taxOnByDefault: false,
  tipsEnabled: true,
  tipPercents: [15, 18, 20],
  tipBase: 'before-tax',
  smartTips: { enabled: false, thresholdCents: 1_000, amountsCents: [100, 200, 300] },
  confirmAboveCents: 100_000,
  hardCapCents: 1_000_000,
  tipConfirmPercent: 50,
  idleLockMinutes: 5,
  offlinePaymentCapCents: 10_000,
  offlineTotalCapCents: 100_000,
  offlineAllowKeyed: false,
  offlineApprovalAboveCents: 0,
  offlineExpiryHours: 72,
  offlineAlertHours: 24,
  drawerOpenAlertSeconds: 60,
};

/* ---------- the `settings:*` channels ---------- */

export const settingsHandlers = {
  /** Any signed-in user (the sale screen reads tax and tips from it). */
  'settings:get': { args: z.void(), access: 'signed-in', effect: 'read', audit: 'none', copiedFolder: 'answers' },
  /** Managers only; the whole settings object, checked with storeSettingsSchema. */
  'settings:update': { args: storeSettingsSchema, access: MANAGER, effect: 'settings', audit: audits(['settings-change'], ['detail']) },
} as const satisfies ChannelDeclarations;

export interface SettingsResults {
  'settings:get': StoreSettings;
  'settings:update': StoreSettings;
}

export interface SettingsEventPayloads {
  /** A manager saved new settings: every window follows. */
  'settings:changed': StoreSettings;
}
export const settingsEventNames = ['settings:changed'] as const;

/**
 * The `recurring:*` channels (managers): scheduled payments from a saved card or bank
 * account. List them with status, next run and amount and the runs of the next 30 days;
 * create one; preview what hold / activate / skip / defer would change, then do it.
 * The schemas below are the ones the create form uses to check fields as they are typed.
 */
import { z } from 'zod';
import { centsSchema, idSchema } from './common';
import { MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

export const RECURRING_FIELD_ERRORS = {
  method: 'Pick the saved card or bank account to charge.',
  amount: 'Type an amount above $0.00.',
  interval: 'Every 1 to 99 days, weeks or months.',
  startDate: 'Pick the date of the first payment (today or later).',
  installments: 'Installments are 1 to 99 payments; leave it empty for ongoing.',
  notificationDays: 'Notice is 0 to 99 days before each payment.',
  count: 'Choose 1 to 99 payments.',
} as const;

export const RECURRING_ACTIONS = ['hold', 'activate', 'skip', 'defer'] as const;
export type RecurringAction = (typeof RECURRING_ACTIONS)[number];

const dateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, RECURRING_FIELD_ERRORS.startDate);

export const recurringCreateArgsSchema = z.strictObject({
  methodId: z.string().min(1, RECURRING_FIELD_ERRORS.method).max(64).regex(/^[A-Za-z0-9_.:-]*$/, RECURRING_FIELD_ERRORS.method),
  amountCents: centsSchema.min(1, RECURRING_FIELD_ERRORS.amount),
  interval: z.number({ message: RECURRING_FIELD_ERRORS.interval }).int(RECURRING_FIELD_ERRORS.interval).min(1, RECURRING_FIELD_ERRORS.interval).max(99, RECURRING_FIELD_ERRORS.interval),
  intervalType: z.enum(['d', 'w', 'm']),
  startDate: dateSchema,
  installments: z.number().int(RECURRING_FIELD_ERRORS.installments).min(1, RECURRING_FIELD_ERRORS.installments).max(99, RECURRING_FIELD_ERRORS.installments).nullable(),
  notificationDays: z.number().int(RECURRING_FIELD_ERRORS.notificationDays).min(0, RECURRING_FIELD_ERRORS.notificationDays).max(99, RECURRING_FIELD_ERRORS.notificationDays),
  description: z.string().trim().max(36),
});
export const recurringActArgsSchema = z.strictObject({
  id: idSchema,
  action: z.enum(RECURRING_ACTIONS),
  count: z.number().int().min(1, RECURRING_FIELD_ERRORS.count).max(99, RECURRING_FIELD_ERRORS.count),
});

export interface RecurringView {
  id: string;
  customerName: string;
  /** "Visa •••• 1111" — masked, never a full number. */
  methodLabel: string;
  amountCents: number;
  /** "Every month", "Every 2 weeks". */
  scheduleLabel: string;
  kind: 'ongoing' | 'installment';
  installments: number | null;
  status: 'active' | 'on hold' | 'ended';
  /** False for an ongoing recurring made inactive (it does not run). */
  active: boolean;
  nextRunDate: string | null;
  endDate: string | null;
  description: string | null;
}

export interface UpcomingRun {
  date: string;
  recurringId: string;
  customerName: string;
  methodLabel: string;
  amountCents: number;
}

export interface RecurringList {
  /** The store's date (yyyy-mm-dd) the upcoming list starts at. */
  today: string;
  recurrings: RecurringView[];
  /** Runs of active recurrings in the next 30 days, by date. */
  upcoming: UpcomingRun[];
}

/** What an action would change, shown before it is confirmed. */
export interface RecurringPreview {
  id: string;
  action: RecurringAction;
  count: number;
  /** One plain sentence: "The payments of 2030-02-15 and 2030-03-15 are skipped; the next is on 2030-04-15." */
  summary: string;
  before: { status: RecurringView['status']; nextRunDate: string | null; endDate: string | null; paymentsLeft: number | null };
  after: { status: RecurringView['status']; nextRunDate: string | null; endDate: string | null; paymentsLeft: number | null };
}

export const recurringHandlers = {
  'recurring:list': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none' },
  'recurring:create': { args: recurringCreateArgsSchema, access: MANAGER, effect: 'recurring', audit: audits(['recurring'], ['amount', 'detail']) },
  'recurring:preview': { args: recurringActArgsSchema, access: MANAGER, effect: 'read', audit: 'none' },
  'recurring:act': { args: recurringActArgsSchema, access: MANAGER, effect: 'recurring', audit: audits(['recurring'], ['amount', 'detail']) },
} as const satisfies ChannelDeclarations;

export interface RecurringResults {
  'recurring:list': RecurringList;
  'recurring:create': RecurringView;
  'recurring:preview': RecurringPreview;
  'recurring:act': RecurringView;
}

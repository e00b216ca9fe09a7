/**
 * The `audit:*` channels: the append-only audit log managers read (who did what, when,
 * for how much), and the check of its hash chain (was a record changed or removed in the
 * file?). Kinds are declared once here; each channel's declaration names the kinds
 * it writes (channel-declaration.ts), the core records them (electron/core/audit/recorders.ts),
 * the audit screen filters and labels them.
 */
import { z } from 'zod';
import { idSchema } from './common';
import { MANAGER, type ChannelDeclarations } from './channel-declaration';

export { AUDIT_KINDS, AUDIT_KIND_LABELS, auditKindSchema, type AuditKind } from './audit-kinds';
import { auditKindSchema, type AuditKind } from './audit-kinds';

export interface AuditEntry {
  seq: number;
  /** Unix milliseconds. */
  ts: number;
  kind: AuditKind;
  /** Who did it (or whose PIN was tried); null when nobody was signed in. */
  userId: string | null;
  userName: string | null;
  amountCents: number | null;
  transactionId: string | null;
  /** One plain sentence: "approved", "2 of 5 wrong PINs", "tax rate 8.25 % → 9 %". */
  detail: string;
}

export const AUDIT_PAGE_SIZE = 50;

const msSchema = z.number().int().min(0).max(8_640_000_000_000_000);

export const auditListArgsSchema = z
  .strictObject({
    userId: idSchema.optional(),
    kind: auditKindSchema.optional(),
    /** Unix ms, inclusive. */
    from: msSchema.optional(),
    /** Unix ms, exclusive. */
    to: msSchema.optional(),
    page: z.number().int().min(1).max(1_000_000),
  })
  .refine((a) => a.from === undefined || a.to === undefined || a.from < a.to, { message: 'The start date must be before the end date.', path: ['from'] });
export type AuditListArgs = z.infer<typeof auditListArgsSchema>;

export interface AuditPage {
  rows: AuditEntry[];
  total: number;
  page: number;
  pageCount: number;
}

/** What checking the audit log's hash chain found (the System screen shows the sentence). */
export interface AuditVerification {
  ok: boolean;
  rowsChecked: number;
  /** The first record changed or removed after it was written; absent when all check out. */
  firstBadSeq?: number;
  /** Plain words: "All 1,204 audit records check out." / "Audit record 57 was changed or removed after it was written." */
  sentence: string;
}

export const auditHandlers = {
  'audit:list': { args: auditListArgsSchema, access: MANAGER, effect: 'read', audit: 'none' },
  'audit:verify': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none' },
} as const satisfies ChannelDeclarations;

export interface AuditResults {
  'audit:list': AuditPage;
  'audit:verify': AuditVerification;
}

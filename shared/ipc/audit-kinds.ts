/**
 * The kinds of audit record, declared once: each channel's declaration names the kinds it
 * writes (channel-declaration.ts), the core records them, the audit screen filters and labels
 * them. In a file of its own because both the declarations and the audit channels import it
 * (audit.ts declares its own channels with channel-declaration.ts: one file would be a circle).
 */
import { z } from 'zod';

export const AUDIT_KINDS = [
  'sign-in',
  'pin-failed',
  'lockout',
  'sign-out',
  'idle-lock',
  'sale',
  'refund',
  'void',
  'tip-adjust',
  'settings-change',
  'pin-change',
  'user-change',
  'keys-backup',
  'device-fault',
  'offline-unconfirmed',
  'cash-sale',
  'cash-refund',
  'discount',
  'settle',
  'x-report',
  'z-report',
  'report-print',
  'device-change',
  'catalogue-change',
  'catalogue-import',
  'stock-count',
  'saved-card',
  'recurring',
  'pay-link',
  'level3',
  'offline-forward',
] as const;
export const auditKindSchema = z.enum(AUDIT_KINDS);
export type AuditKind = z.infer<typeof auditKindSchema>;

/** Plain words for each kind, for the screen's filter and rows. */
export const AUDIT_KIND_LABELS: Record<AuditKind, string> = {
  'sign-in': 'Signed in',
  'pin-failed': 'Wrong PIN',
  lockout: 'Locked out',
  'sign-out': 'Signed out',
  'idle-lock': 'Idle lock',
  sale: 'Sale',
  refund: 'Refund',
  void: 'Void',
  'tip-adjust': 'Tip adjusted',
  'settings-change': 'Settings changed',
  'pin-change': 'PIN changed',
  'user-change': 'Counter user changed',
  'keys-backup': 'Key backup',
  'device-fault': 'Device fault',
  'offline-unconfirmed': 'Unconfirmed offline sale',
  'cash-sale': 'Cash sale',
  'cash-refund': 'Cash given back',
  discount: 'Discount or comp',
  settle: 'Batch settled',
  'x-report': 'X report',
  'z-report': 'Z report (day closed)',
  'report-print': 'Report printed',
  'device-change': 'Device changed',
  'catalogue-change': 'Catalogue item changed',
  'catalogue-import': 'Catalogue imported',
  'stock-count': 'Stock count changed',
  'saved-card': 'Saved card or customer',
  recurring: 'Recurring billing changed',
  'pay-link': 'Pay link or invoice',
  level3: 'Level 3 data saved',
  'offline-forward': 'Offline sales sent now',
};

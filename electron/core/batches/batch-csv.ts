/**
 * A batch as CSV for the bookkeeper: one line per transaction, approved amounts as
 * decimal strings, card masked to its last four, the cashier by name (the gateway holds
 * only their clerk_number; one it does not know stays as it came). Text that a spreadsheet would run as a
 * formula (= + - @ at the start) is quoted with a leading apostrophe.
 */
import { formatMoney } from '../../../shared/payments/money';
import type { V2Transaction } from '../../client/v2-types';
import { batchRowOf, counted } from '../transactions/approved-money';

export const BATCH_CSV_HEADER = ['transaction_id', 'created_utc', 'type', 'result', 'card', 'last_four', 'entry_mode', 'approved', 'asked', 'tip', 'tax', 'auth_code', 'cashier'] as const;

function cell(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** `names`: the users' names by clerk_number (clerkNamesOf). */
export function batchCsv(list: readonly V2Transaction[], names: ReadonlyMap<string, string> = new Map()): string {
  const lines = [BATCH_CSV_HEADER.join(',')];
  for (const t of list) {
    const r = batchRowOf(t);
    const c = counted(t);
    lines.push(
      [
        r.id,
        new Date(r.createdTs * 1000).toISOString(),
        r.kind,
        r.stateLabel,
        r.cardBrand,
        r.lastFour,
        r.entryMode,
        formatMoney(r.approvedCents),
        formatMoney(r.askedCents),
        formatMoney(c.tipCents),
        formatMoney(c.taxCents),
        t.auth_code ?? '',
        c.clerk === null ? '' : (names.get(c.clerk) ?? c.clerk),
      ]
        .map((v) => cell(String(v)))
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

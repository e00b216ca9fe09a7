/**
 * Parses the MICR line a check scanner reports (GATEWAY-FACTS "Check scanners"): routing
 * between two transit symbols (9 digits, 3-7-1 checksum), then the account and the check
 * number separated by on-us symbols. Business checks carry the check number in an
 * auxiliary on-us field before the routing (`U001234U T…T …U`). Unreadable characters
 * (`?`, `!`) are rejected, never guessed. Returns a message key on failure.
 */
import { abaRoutingValid, achAccountValid } from './aba-routing';

export interface MicrSymbols {
  transit: string;
  onUs: string;
}

export const DEFAULT_MICR_SYMBOLS: MicrSymbols = { transit: 'T', onUs: 'U' };

export interface MicrData {
  routing: string;
  account: string;
  checkNumber: string | null;
  /** The line as read, trimmed (stored as micr_data). */
  line: string;
}

export type MicrError = 'unreadable' | 'format' | 'routing' | 'account';

export function parseMicr(raw: string, sym: MicrSymbols = DEFAULT_MICR_SYMBOLS): { ok: true; value: MicrData } | { ok: false; error: MicrError } {
  const line = raw.trim();
  if (/[?!]/.test(line)) return { ok: false, error: 'unreadable' };
  const t1 = line.indexOf(sym.transit);
  const t2 = t1 < 0 ? -1 : line.indexOf(sym.transit, t1 + 1);
  if (t1 < 0 || t2 < 0) return { ok: false, error: 'format' };
  const routing = line.slice(t1 + 1, t2).replace(/[\s-]/g, '');
  if (!abaRoutingValid(routing)) return { ok: false, error: /^\d{9}$/.test(routing) ? 'routing' : 'format' };
  // Auxiliary on-us before the routing: the check number of a business check.
  const aux = line.slice(0, t1).split(sym.onUs).map((s) => s.trim()).filter(Boolean);
  const rest = line.slice(t2 + 1);
  const u = rest.indexOf(sym.onUs);
  if (u < 0) return { ok: false, error: 'format' };
  const account = rest.slice(0, u).replace(/[\s-]/g, '');
  if (!achAccountValid(account)) return { ok: false, error: 'account' };
  const after = rest.slice(u + 1).replace(/[\s-]/g, '');
  const checkNumber = /^\d{1,15}$/.test(after) ? after.replace(/^0+(?=\d)/, '') : aux[0] && /^\d{1,15}$/.test(aux[0]) ? aux[0].replace(/^0+(?=\d)/, '') : null;
  return { ok: true, value: { routing, account, checkNumber, line } };
}

/**
 * Wrong join codes per client address, a little: a code's secret is 50 bits and lives 15 minutes,
 * so guessing is hopeless anyway; this keeps a script from filling the log and the CPU trying.
 * Simplification: counted per server process, in memory (another process, or a restart, counts afresh).
 */
import { STORE_ERR, refuse } from './store-errors';

export const WRONG_CODES_PER_WINDOW = 10;
export const WRONG_CODE_WINDOW_MS = 60_000;

export class WrongCodeLimiter {
  private readonly tries = new Map<string, { count: number; since: number }>();

  /** Refuses (429) an address that gave too many wrong codes in the current window. */
  check(ip: string, now = Date.now()): void {
    const t = this.tries.get(ip);
    if (t && now - t.since < WRONG_CODE_WINDOW_MS && t.count >= WRONG_CODES_PER_WINDOW) throw refuse(429, STORE_ERR.tooManyTries);
  }

  wrong(ip: string, now = Date.now()): void {
    const t = this.tries.get(ip);
    if (!t || now - t.since >= WRONG_CODE_WINDOW_MS) this.tries.set(ip, { count: 1, since: now });
    else t.count++;
    // Old windows go, so the map stays as small as the addresses trying now.
    if (this.tries.size > 10_000) for (const [k, v] of this.tries) if (now - v.since >= WRONG_CODE_WINDOW_MS) this.tries.delete(k);
  }
}

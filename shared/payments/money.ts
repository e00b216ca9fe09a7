/**
 * Money at the API edge is a decimal string ("10.00"); inside it is integer cents.
 * Parsing is textual, never through floats, so "0.1" + "0.2" is exactly 30 cents.
 */
export const MAX_AMOUNT_CENTS = 99_999_999_999; // 12 characters "999999999.99"

/** "10", "10.5", "10.50" → 1000, 1050, 1050. null for anything else (3+ decimals, signs, exponents). */
export function parseMoney(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    // Numbers arrive from JSON; format through a fixed 2-decimal string only when exact.
    text = String(value);
    if (/e/i.test(text)) return null;
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return cents <= MAX_AMOUNT_CENTS ? cents : null;
}

/**
 * An amount as the API takes it: a JSON string of 1 to 9 digits and at most 2 decimals
 * ("10", "10.5", "10.50"), nothing around it. The engine's validation and its OpenAPI
 * document both read this one pattern, so " 10.00" or 10.5 (a number) is refused by both.
 */
export const MONEY_INPUT_RE = /^\d{1,9}(\.\d{1,2})?$/;

/** An amount sent to the API (see MONEY_INPUT_RE) in cents, or null when it is not one. */
export function parseMoneyInput(value: unknown): number | null {
  return typeof value === 'string' && MONEY_INPUT_RE.test(value) ? parseMoney(value) : null;
}

/** 1050 → "10.50" (negative amounts keep their sign). */
export function formatMoney(cents: number): string {
  const neg = cents < 0;
  const abs = Math.abs(Math.trunc(cents));
  const s = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return neg ? `-${s}` : s;
}

/** "$10.50" for cashier-facing text. */
export function formatMoneyDisplay(cents: number): string {
  const s = formatMoney(cents);
  return s.startsWith('-') ? `-$${s.slice(1)}` : `$${s}`;
}

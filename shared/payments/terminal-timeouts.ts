/**
 * The EMV terminal's timeouts (seconds), declared once from the interface's table: the
 * engine validates terminal_timeouts with them, the device driver ends each timeout with
 * its message, and the installer screen shows the bounds inline.
 */
export interface TimeoutSpec {
  default: number;
  min: number;
  max: number;
  label: string;
  /** Shown when this timeout expires (null: not a timeout). */
  message: string | null;
}

export const TERMINAL_TIMEOUTS = {
  card_entry_timeout: { default: 120, min: 20, max: 120, label: 'Card Entry Timeout', message: 'Card Entry Timeout' },
  device_terms_prompt_timeout: { default: 60, min: 5, max: 300, label: 'Device Terms Prompt Timeout', message: 'Timeout waiting for Customer' },
  overall_timeout: { default: 300, min: 30, max: 300, label: 'Overall Timeout', message: 'Overall Request Timeout' },
  pin_entry_timeout: { default: 30, min: 20, max: 50, label: 'Pin Entry Timeout', message: 'Pin Entry Timeout' },
  signature_input_timeout: { default: 10, min: 10, max: 50, label: 'Signature Input Timeout', message: 'Signature Input Timeout' },
  signature_submit_timeout: { default: 30, min: 20, max: 50, label: 'Signature Submit Timeout', message: 'Signature Storage Timeout' },
  status_display_time: { default: 7, min: 1, max: 30, label: 'Status Display Time', message: null },
  tip_cashback_timeout: { default: 30, min: 20, max: 50, label: 'Tip Cashback Timeout', message: 'Tip/Cashback Timeout' },
  transaction_timeout: { default: 10, min: 10, max: 20, label: 'Transaction Timeout', message: 'Transaction Timeout' },
} as const satisfies Record<string, TimeoutSpec>;

export type TimeoutKey = keyof typeof TERMINAL_TIMEOUTS;
export type TerminalTimeouts = Record<TimeoutKey, number>;
export const TIMEOUT_KEYS = Object.keys(TERMINAL_TIMEOUTS) as TimeoutKey[];

export function defaultTimeouts(): TerminalTimeouts {
  return Object.fromEntries(TIMEOUT_KEYS.map((k) => [k, TERMINAL_TIMEOUTS[k].default])) as TerminalTimeouts;
}

/** The stored timeouts over the defaults (unknown or out-of-range keys fall back to the default). */
export function effectiveTimeouts(stored: unknown): TerminalTimeouts {
  const out = defaultTimeouts();
  if (stored && typeof stored === 'object') {
    for (const k of TIMEOUT_KEYS) {
      const v = (stored as Record<string, unknown>)[k];
      const s = TERMINAL_TIMEOUTS[k];
      if (typeof v === 'number' && Number.isInteger(v) && v >= s.min && v <= s.max) out[k] = v;
    }
  }
  return out;
}

/** Tip percents: three integers 0-99, or none at all (null). */
export type TipPercents = [number, number, number] | null;

/**
 * The tip-percent rules the engine applies to `tip_percents`, declared once for the engine and
 * the installer screen: each value a whole number from 0 to 99 or null, and all three null or
 * none. `{key}` names the value: the engine says "Tip Percents percent_2", the screen "Percent 2".
 */
export const TIP_PERCENT_MSG = {
  ALL_OR_NONE: 'Tip Percents must be all three set or all three empty (null).',
  RANGE: '{key} must be a whole number from 0 to 99.',
} as const;

export const tipPercentRangeMessage = (key: string): string => TIP_PERCENT_MSG.RANGE.replace('{key}', key);

/** What breaks the rules, in the engine's order; `at` lists the values each message is about. */
export function tipPercentProblems(values: readonly unknown[], keyOf: (i: number) => string): { at: number[]; message: string }[] {
  const problems: { at: number[]; message: string }[] = [];
  const nulls: number[] = [];
  values.forEach((v, i) => {
    if (v === null) nulls.push(i);
    else if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 99) problems.push({ at: [i], message: tipPercentRangeMessage(keyOf(i)) });
  });
  if (nulls.length > 0 && nulls.length < values.length) problems.push({ at: nulls, message: TIP_PERCENT_MSG.ALL_OR_NONE });
  return problems;
}

export function tipPercentsOf(stored: unknown): TipPercents {
  if (!stored || typeof stored !== 'object') return null;
  const o = stored as Record<string, unknown>;
  const v = [o.percent_1, o.percent_2, o.percent_3];
  return v.every((x) => typeof x === 'number') ? (v as [number, number, number]) : null;
}

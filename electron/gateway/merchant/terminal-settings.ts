/**
 * The terminal JSON settings: `terminal_timeouts` (per-key default/min/max from the
 * interface's table, in seconds) and `tip_percents` (exactly percent_1..3, each 0-99,
 * all null or none null). The device driver reads TERMINAL_TIMEOUTS for its messages.
 */
import { MSG, type ErrorCollector } from '../framework/errors';
import { isPlainObject } from '../framework/validate';
import { MERCHANT_MSG } from './messages';
import { TERMINAL_TIMEOUTS, tipPercentProblems, type TimeoutSpec } from '../../../shared/payments/terminal-timeouts';

export { TERMINAL_TIMEOUTS, defaultTimeouts, type TimeoutSpec, type TerminalTimeouts } from '../../../shared/payments/terminal-timeouts';

/** What checkTimeouts takes, for the OpenAPI document: the known keys, each an integer within its bounds. */
export const TIMEOUTS_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(Object.entries(TERMINAL_TIMEOUTS as Record<string, TimeoutSpec>).map(([k, spec]) => [k, { type: 'integer', minimum: spec.min, maximum: spec.max, description: `${spec.label}, seconds (default ${spec.default}).` }])),
};

/** Validates the keys sent; returns only them (the caller merges with defaults or the stored value). */
export function checkTimeouts(value: unknown, errs: ErrorCollector, field: string): Record<string, number> | undefined {
  if (!isPlainObject(value)) {
    errs.add(field, MSG.NOT_OBJECT);
    return undefined;
  }
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(value)) {
    const spec = Object.hasOwn(TERMINAL_TIMEOUTS, k) ? (TERMINAL_TIMEOUTS as Record<string, TimeoutSpec>)[k] : undefined;
    if (!spec) {
      errs.add(field, MSG.UNKNOWN_KEY, { key: k.slice(0, 64) });
      continue;
    }
    if (typeof v !== 'number' || !Number.isInteger(v)) errs.add(field, MERCHANT_MSG.TIMEOUT_NOT_INTEGER, { label: spec.label });
    else if (v < spec.min) errs.add(field, MERCHANT_MSG.TIMEOUT_TOO_SMALL, { label: spec.label, min: spec.min });
    else if (v > spec.max) errs.add(field, MERCHANT_MSG.TIMEOUT_TOO_BIG, { label: spec.label, max: spec.max });
    else out[k] = v;
  }
  return out;
}

export const TIP_KEYS = ['percent_1', 'percent_2', 'percent_3'] as const;

/** What checkTipPercents takes, for the OpenAPI document: exactly the three keys, 0-99 each (all null, or none). */
export const TIP_PERCENTS_SCHEMA: Record<string, unknown> = {
  type: 'object',
  required: [...TIP_KEYS],
  additionalProperties: false,
  properties: Object.fromEntries(TIP_KEYS.map((k) => [k, { type: ['integer', 'null'], minimum: 0, maximum: 99 }])),
  description: 'All three null (no suggested tips) or none null.',
};

export function checkTipPercents(value: unknown, errs: ErrorCollector, field: string): Record<string, number | null> | undefined {
  if (!isPlainObject(value)) {
    errs.add(field, MSG.NOT_OBJECT);
    return undefined;
  }
  const keys = Object.keys(value);
  if (keys.length !== TIP_KEYS.length || !TIP_KEYS.every((k) => keys.includes(k))) {
    errs.add(field, MERCHANT_MSG.TIP_PERCENTS_KEYS);
    return undefined;
  }
  // The rules shared with the installer screen (shared/payments/terminal-timeouts.ts).
  const values = TIP_KEYS.map((k) => value[k]);
  for (const p of tipPercentProblems(values, (i) => `Tip Percents ${TIP_KEYS[i] ?? ''}`)) errs.add(field, p.message);
  // With a problem the write is refused, so the values are returned as sent.
  return Object.fromEntries(TIP_KEYS.map((k, i) => [k, values[i] as number | null]));
}

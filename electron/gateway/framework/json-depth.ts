/**
 * The nesting limit of request bodies. SQLite's JSON functions give up at 1,000 levels
 * (json_extract raises "JSON nested too deep"), so one stored document nested that deep
 * used to break every list over its table. Nothing in the interface nests more than a
 * few levels (wrapper → custom_data → a user's own structure); 32 leaves room for that.
 */
export const MAX_JSON_DEPTH = 32;

/** Depth of a parsed JSON value: a scalar is 0, `{}` and `[]` are 1. Iterative, so no stack overflow. */
export function jsonDepth(value: unknown, stopAbove = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const depth = d + 1;
    if (depth > max) {
      max = depth;
      if (max > stopAbove) return max;
    }
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth]);
    }
  }
  return max;
}

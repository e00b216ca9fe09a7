/**
 * The ways to pay the lost-answer kill test (test/unit/lost-answer-kill.test.ts) goes through,
 * and each run's amount: unique per way and run, and clear of the sandbox's special amounts
 * (2.01, 5.xx–8.xx), so the engine's records of one run are told apart by amount alone.
 */
export const KILL_WAYS = ['keyed', 'saved', 'terminal', 'check', 'cart-card', 'cart-saved', 'cart-terminal'] as const;
export type KillWay = (typeof KILL_WAYS)[number];

export function amountOf(way: KillWay, run: number): number {
  return 10_00 + KILL_WAYS.indexOf(way) * 100 + run;
}

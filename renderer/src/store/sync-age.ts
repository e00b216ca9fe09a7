/**
 * "12 s ago", "4 min ago", "3 h ago": how long since a register last reached the store server,
 * in the words the Registers screen shows. Both times are this register's clock (ms): the
 * screen's own `Date.now()` against the time the core or the store server stamped. A time a
 * little ahead of now (two machines' clocks differ by a second or two) reads "just now",
 * never "-2 s ago".
 */
export function syncAgeWords(thenMs: number | null, nowMs: number): string {
  if (thenMs === null) return 'not yet';
  const s = Math.floor((nowMs - thenMs) / 1000);
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} days ago`;
}

/** "12 changes waiting", "1 change waiting", "nothing waiting". */
export function waitingWords(n: number): string {
  if (n === 0) return 'nothing waiting';
  return `${n.toLocaleString()} ${n === 1 ? 'change' : 'changes'} waiting`;
}

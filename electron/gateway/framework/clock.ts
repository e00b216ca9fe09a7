/**
 * The engine's clock, in Unix seconds. Every created_ts/modified_ts, timestamp filter
 * range and time-based state (ACH progression, token expiry) reads it, so tests can
 * move time instead of sleeping.
 */
export interface Clock {
  /** Unix seconds (integer). */
  now(): number;
  /** Unix milliseconds on the same clock (`now()` is its whole seconds); for work that must keep exact real-time spacing. */
  nowMs?(): number;
  /** Waits `ms` (the simulated processor's delays); tests make it instant. */
  sleep(ms: number): Promise<void>;
}

export class MovableClock implements Clock {
  private offset = 0;
  private fixed: number | undefined;
  now(): number {
    return this.fixed ?? Math.floor(Date.now() / 1000) + this.offset;
  }
  nowMs(): number {
    return this.fixed !== undefined ? this.fixed * 1000 : Date.now() + this.offset * 1000;
  }
  /** Pins the clock at `ts` (Unix seconds) until `release()`. */
  set(ts: number): void {
    this.fixed = Math.floor(ts);
  }
  /** Moves the clock forward (or back with a negative value) by `seconds`. */
  advance(seconds: number): void {
    if (this.fixed !== undefined) this.fixed += seconds;
    else this.offset += seconds;
  }
  release(): void {
    this.fixed = undefined;
  }
  /**
   * When true, sleep() does not wait: it moves the clock by the delay (rounded up to a
   * second) and records it in `slept`, so a 10-second processor time-out costs no time.
   */
  instantSleep = false;
  readonly slept: number[] = [];
  sleep(ms: number): Promise<void> {
    if (!this.instantSleep) return new Promise<void>((r) => setTimeout(r, ms));
    this.slept.push(ms);
    this.advance(Math.ceil(ms / 1000));
    return Promise.resolve();
  }
}

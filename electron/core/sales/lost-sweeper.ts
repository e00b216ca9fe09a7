/**
 * When payments whose answer was lost are asked about (issue 20, point 3; lost-payments.ts): at
 * start, at every sign-in or unlock, and every `intervalMs` while one is unknown — one sweep at
 * a time. A copy of another register's data folder asks nothing. Moved out of app-core.ts so
 * that file only assembles the slices.
 */
import type { LostPayments } from './lost-payments';

export class LostSweeper {
  private sweeping: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly lost: Pick<LostPayments, 'resumeAll' | 'anyOpen'>,
    private readonly copy: boolean,
  ) {}

  sweep(): void {
    if (this.copy || this.closed || this.sweeping) return;
    this.sweeping = this.lost
      .resumeAll()
      .catch((err: unknown) => console.error(`[core] lost payments: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => (this.sweeping = null));
  }

  /** The first sweep, then one every interval while a payment is unknown. */
  start(intervalMs: number): void {
    this.sweep();
    this.timer = setInterval(() => {
      if (this.lost.anyOpen()) this.sweep();
    }, intervalMs);
    this.timer.unref();
  }

  /** No new sweep; the one under way ends first. */
  async stop(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }
}

/**
 * One delivery round at a time (the SMTP mailer, the postback outbox): a call while a
 * round runs shares it and asks for one more round after it, so work queued meanwhile is
 * not left waiting for the next timer tick, and rounds never overlap.
 */
export class CoalescedRun {
  private running: Promise<void> | null = null;
  private again = false;

  /** `more`: whether a requested further round may still start (false once closing). */
  constructor(
    private readonly round: () => Promise<void>,
    private readonly more: () => boolean = () => true,
  ) {}

  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.round();
        } while (this.again && this.more());
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Resolves when the round in progress (if any) is over. */
  async settled(): Promise<void> {
    await this.running;
  }
}

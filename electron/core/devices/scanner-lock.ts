/**
 * One check read at a time: the check scanner is a serial device that reads one check, so a
 * second read (the installer's test, the counter's scan) is refused while one is running.
 */
export class ScannerLock {
  private running = false;

  get busy(): boolean {
    return this.running;
  }

  /** Runs `fn` holding the scanner; the caller checked `busy` first. */
  async during<T>(fn: () => Promise<T>): Promise<T> {
    this.running = true;
    try {
      return await fn();
    } finally {
      this.running = false;
    }
  }
}

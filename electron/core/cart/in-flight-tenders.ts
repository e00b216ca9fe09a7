/**
 * The card tenders whose gateway call is running in this process. A pending tender not in
 * here was cut off by a restart: `cart:current` asks the gateway what became of it, while one
 * in here is left alone (its own call will answer it).
 */
export class InFlightTenders {
  private readonly ids = new Set<string>();

  has(tenderId: string): boolean {
    return this.ids.has(tenderId);
  }

  /** Runs `fn` with the tender marked in flight, until it ends whichever way. */
  async during<T>(tenderId: string, fn: () => Promise<T>): Promise<T> {
    this.ids.add(tenderId);
    try {
      return await fn();
    } finally {
      this.ids.delete(tenderId);
    }
  }
}

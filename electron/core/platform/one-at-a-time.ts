/**
 * Runs the steps of one key (a sale's id, a cart's id) one after another, while steps of
 * different keys still overlap: two quick refunds of one sale, or two quick returns of one
 * cart's line, must not both see the same amount left. The sale path (sales/, transactions/)
 * and the cart (cart/) each keep one of these for as long as the core runs.
 */
export class OneAtATime {
  private readonly queues = new Map<string, Promise<unknown>>();

  /** Runs `fn` once every earlier step of `key` has ended (whether it succeeded or threw). */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return next;
  }
}

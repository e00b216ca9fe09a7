/**
 * Work that falls due with time: recurring runs, notifications before a run, invoice
 * reminders, postback retries, batch auto-close. Each module that has such work returns
 * it from `EngineModule.dueWork`; the engine's scheduler (and the sandbox clock's
 * advance) calls every `run` in module order. A run must be idempotent: it may be called
 * again for the same moment (after a crash, or twice in a row) and must not redo work
 * that is already recorded as done.
 */
/**
 * The moment one scheduler run works at: each location's now (`ctx.locationNow`) read
 * once, at the first ask of the run, and answered the same to every piece of work after
 * it. A sandbox clock advance may land while a run is in progress; without this, a
 * later pass of the run (ending plans whose end date passed) would see a later day than
 * an earlier pass (charging what is due) and end plans whose runs were not charged yet.
 * The advance's own run then catches up at the new moment.
 */
export interface DueMoment {
  now(locationId: string): number;
}

export interface DueWork {
  /** Short name for logs and tests ("recurring-runs", "postback-retries"…). */
  name: string;
  /**
   * Does whatever is due at the location's own now (`ctx.locationNow(id)`): for one
   * location when `locationId` is given (the sandbox clock moved it), else for all.
   */
  run(locationId?: string, at?: DueMoment): Promise<void> | void;
}

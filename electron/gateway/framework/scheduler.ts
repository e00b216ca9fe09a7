/**
 * The engine's scheduler: calls every module's due work (`EngineModule.dueWork`) in
 * module order, once at start (to catch up work missed while the engine was stopped)
 * and then on a timer. The sandbox clock's advance calls `runDue(locationId)` directly.
 *
 * Runs never overlap: a tick that finds the previous run still going is skipped (the
 * work is idempotent and the next tick catches up). A failing piece of work is logged
 * and does not stop the others. Every piece of work of one run sees the same moment per
 * location (`DueMoment`), however the sandbox clock moves meanwhile.
 */
import type { EngineContext, EngineModule } from './context';
import type { DueMoment, DueWork } from './due-work';

/** Default tick (ms); due work is expressed in whole seconds of location time. */
export const SCHEDULER_INTERVAL_MS = 15_000;

export interface Scheduler {
  /** Runs every module's due work (for one location, or all); resolves when all finished. */
  runDue(locationId?: string): Promise<void>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

export function createScheduler(ctx: EngineContext, modules: readonly EngineModule[]): Scheduler {
  const work: DueWork[] = modules.flatMap((m) => m.dueWork?.(ctx) ?? []);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const runOnce = async (locationId?: string) => {
    const moments = new Map<string, number>();
    const at: DueMoment = {
      now(loc) {
        let t = moments.get(loc);
        if (t === undefined) moments.set(loc, (t = ctx.locationNow(loc)));
        return t;
      },
    };
    for (const w of work) {
      try {
        await w.run(locationId, at);
      } catch (err) {
        ctx.log(`due work ${w.name} failed: ${(err as Error).message}`);
      }
    }
  };
  // Serialised: a clock advance waits for a timer run in progress, then runs its own.
  const runDue = (locationId?: string) => (running = running.then(() => runOnce(locationId)));

  return {
    runDue,
    start(intervalMs = SCHEDULER_INTERVAL_MS) {
      void runDue();
      let busy = false;
      timer = setInterval(() => {
        if (busy) return;
        busy = true;
        void runDue().finally(() => (busy = false));
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

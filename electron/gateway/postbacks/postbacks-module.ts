/**
 * Postbacks: create / update / delete events of contacts, transactions, transaction
 * batches and account vaults are POSTed to every active config of the location that
 * listens (on_create / on_update / on_delete; product_transaction_id when the config has
 * one), as application/x-www-form-urlencoded `type`, `resource`, `number_of_attempts`
 * (attempts made, this one included) and `data` (the record as JSON with the config's
 * expands). Retries follow number_of_attempts and attempt_interval (seconds, at least 1)
 * exactly, in location time; the receiver has 10 seconds to answer.
 *
 * Installs `ctx.recordEvent` (framework/record-events.ts): the one hook that the generic
 * CRUD routes and the payments services call inside their writes. Deliveries are rows of
 * postback_deliveries (postback-outbox.ts): persisted with the change, so they survive a
 * restart or a kill -9 and are sent after it.
 *
 * Engine extension under /v2 (same credentials): the delivery log
 * `GET /v2/postbackdeliveries[?postback_config_id=]`, `GET /v2/postbackdeliveries/{id}`
 * and `POST /v2/postbackdeliveries/{id}/redeliver` (a fresh series of attempts, answered
 * once the first attempt's outcome is recorded).
 */
import type { EngineContext, EngineModule } from '../framework/context';
import type { RecordEvent } from '../framework/record-events';
import { postbackDeliveryResource } from './postback-delivery-resource';
import { locationNowMs, PostbackDispatcher, queueFor, sealStoredPasswords } from './postback-outbox';
import { POSTBACK_TIMEOUT_MS } from './postback-sender';
import { POSTBACKS_MIGRATIONS } from './postbacks-migrations';
import { postbacksOpenApi } from './postbacks-openapi';

/** A safety-net tick (the dispatcher arms a timer for the earliest retry; this catches anything it missed). */
export const POSTBACK_POLL_MS = 1000;

export function createPostbacksModule(): EngineModule & { dispatcher(): PostbackDispatcher } {
  let dispatcher: PostbackDispatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let kickQueued = false;
  /**
   * The locations that have an active postback config, read when needed: an engine without
   * postbacks (most) then announces a sale without a query. Forgotten on every write of a
   * config (its own record event, inside that write) and on reset; not read again in that
   * event, which may yet be undone.
   */
  let listening: Set<string> | undefined;
  const get = () => {
    if (!dispatcher) throw new Error('postbacks module not initialised');
    return dispatcher;
  };
  const kick = () => {
    if (kickQueued) return;
    kickQueued = true;
    // After the write that queued it has committed (the write runs synchronously before this fires).
    setImmediate(() => {
      kickQueued = false;
      void dispatcher?.pump();
    });
  };

  return {
    name: 'postbacks',
    migrations: POSTBACKS_MIGRATIONS,
    resources: [postbackDeliveryResource],
    dispatcher: get,

    init(ctx) {
      sealStoredPasswords(ctx);
      const d = new PostbackDispatcher(ctx, ctx.options.postbackTimeoutMs ?? POSTBACK_TIMEOUT_MS);
      dispatcher = d;
      // A method: a module with its own connection (payments) queues on that connection, inside its write.
      ctx.recordEvent = function (this: EngineContext, e: RecordEvent) {
        if (e.resource === 'postbackconfig') listening = undefined;
        else {
          listening ??= new Set((this.stmt('SELECT DISTINCT location_id FROM postback_configs WHERE is_active = 1').all() as { location_id: string }[]).map((r) => r.location_id));
          if (!listening.has(e.locationId)) return;
        }
        if (queueFor(this, e) > 0) kick();
      };
      const poll = ctx.options.postbackPollMs ?? POSTBACK_POLL_MS;
      if (poll > 0) {
        timer = setInterval(() => void d.pump(), poll);
        timer.unref();
      }
      // Deliveries left pending by a stop or a crash go out as soon as the engine is up.
      kick();
    },

    routes(app, ctx) {
      const def = ctx.resource('postbackdelivery');
      // Sending a record again: whoever may read the log (the managers who set postbacks up).
      app.post<{ Params: { id: string } }>('/v2/postbackdeliveries/:id/redeliver', { config: { allow: def.allow.view } }, async (req) => {
        const row = ctx.findVisible(def, req.params.id, req);
        const now = ctx.locationNow(String(row.location_id));
        ctx
          .stmt("UPDATE postback_deliveries SET status = 'pending', number_of_attempts = 0, next_attempt_ts = ?, next_attempt_ms = ?, modified_ts = ? WHERE id = ?")
          .run(now, locationNowMs(ctx, String(row.location_id)), ctx.clock.now(), row.id);
        await get().pump();
        return { postbackdelivery: ctx.serialize(def, ctx.getById(def, row.id) ?? row, req.auth) };
      });
    },

    openapi: () => postbacksOpenApi(),

    // First start and reset(): the configs were (re)written.
    seed() {
      listening = undefined;
    },

    dueWork: () => [{ name: 'postback-deliveries', run: () => get().pump() }],

    async close() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await dispatcher?.close();
    },
  };
}

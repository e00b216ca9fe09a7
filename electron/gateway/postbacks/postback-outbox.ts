/**
 * The postback outbox: `queueFor` (the engine's `ctx.recordEvent`) writes one
 * postback_deliveries row per active config that listens to the event, inside the write
 * that makes the change, with the record as it is at the event (and the config's
 * expands) already serialised into `data`. So a delivery exists exactly when its change
 * does, and survives a restart or a kill -9 like the change itself.
 *
 * The dispatcher sends what is due: right after a write (a kick), when a timer armed for
 * the earliest pending retry fires, on its own poll tick (a safety net), and as due work
 * (the scheduler, the sandbox clock's advance, which waits for the attempts to finish).
 * An attempt's outcome is recorded after the receiver answered: delivered; or, while
 * attempts remain, the next try exactly attempt_interval seconds after the failed attempt
 * began (kept in milliseconds of location time, so the sandbox clock drives it and the
 * wall clock keeps the spacing: whole seconds made a retry up to a second early); or
 * failed. A receiver slower than attempt_interval is tried again as soon as it answered. Delivery is at least once:
 * an attempt in flight at a crash is made again after the restart (receivers dedupe by
 * the record id and type, as with Stripe's events).
 */
import type { EngineContext } from '../framework/context';
import { isSealed, openColumnSecret, sealColumnSecret } from '../framework/engine-meta';
import type { RecordEvent } from '../framework/record-events';
import { postForm, type AttemptResult } from './postback-sender';
import { CoalescedRun } from '../framework/coalesced-run';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export const OUTBOX_MSG = {
  CONFIG_DELETED: 'The postback config was deleted; nothing more is sent.',
} as const;

const EVENT_COLUMN = { CREATE: 'on_create', UPDATE: 'on_update', DELETE: 'on_delete' } as const;

/**
 * Where postback data differs from the API answer, as the interface says: contact data
 * names the header message type `header_message_type_id` (the API field is header_message_type).
 */
const DATA_SHAPE: Record<string, (d: Record<string, unknown>) => Record<string, unknown>> = {
  contact: ({ header_message_type, ...rest }) => ({ ...rest, header_message_type_id: header_message_type ?? 0 }),
};

/**
 * Location time in milliseconds: the engine clock's milliseconds plus the location's
 * sandbox offset (locationNow − now, read so that both reads fall in the same second).
 */
export function locationNowMs(ctx: EngineContext, locationId: string): number {
  for (;;) {
    const before = ctx.clock.now();
    const local = ctx.locationNow(locationId);
    const ms = ctx.clock.nowMs?.() ?? before * 1000;
    if (ctx.clock.now() === before) return ms + (local - before) * 1000;
  }
}

interface ListeningConfig {
  id: string;
  expands: string | null;
}

/** Writes the deliveries of one event; called as `ctx.recordEvent`, on the writer's connection. */
export function queueFor(ctx: EngineContext, e: RecordEvent): number {
  const configs = ctx
    .stmt(`SELECT id, expands FROM postback_configs WHERE location_id = ? AND resource = ? AND is_active = 1 AND ${EVENT_COLUMN[e.type]} = 1
      AND (product_transaction_id IS NULL OR ? IS NULL OR product_transaction_id = ?)`)
    .all(e.locationId, e.resource, e.productTransactionId ?? null, e.productTransactionId ?? null) as ListeningConfig[];
  if (configs.length === 0) return 0;
  const byExpands = new Map<string, string>();
  const now = ctx.clock.now();
  const due = ctx.locationNow(e.locationId);
  const dueMs = locationNowMs(ctx, e.locationId);
  const insert = ctx.stmt(`INSERT INTO postback_deliveries (id, postback_config_id, location_id, type, resource, record_id, data, next_attempt_ts, next_attempt_ms, created_ts, modified_ts)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const c of configs) {
    const names = (c.expands ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const key = names.join(',');
    let data = byExpands.get(key);
    if (data === undefined) {
      const record = e.snapshot(names);
      data = JSON.stringify(DATA_SHAPE[e.resource]?.(record) ?? record);
      byExpands.set(key, data);
    }
    insert.run(ctx.newId(), c.id, e.locationId, e.type, e.resource, e.recordId, data, due, dueMs, now, now);
  }
  return configs.length;
}

interface DueRow {
  id: string;
  postback_config_id: string;
  location_id: string;
  type: string;
  resource: string;
  data: string;
  number_of_attempts: number;
  attempts_log: string;
  url: string | null;
  basic_auth_username: string | null;
  basic_auth_password: string | null;
  max_attempts: number | null;
  attempt_interval: number | null;
}

interface Outcome {
  row: DueRow;
  attemptTs: number;
  attemptMs: number;
  result: AttemptResult | null;
}

/** How many attempts run at once, and how many due rows one round reads. */
const CONCURRENCY = 128;
const ROUND = 1000;

export class PostbackDispatcher {
  private readonly rounds = new CoalescedRun(
    async () => {
      try {
        await this.drain();
      } catch (err) {
        this.ctx.log(`postback delivery failed: ${(err as Error).message}`);
      }
    },
    () => !this.closed,
  );
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: EngineContext,
    private readonly timeoutMs: number,
  ) {}

  /** Sends everything due now (all locations); resolves when the round trips are recorded. */
  pump(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.rounds.run();
  }

  /** Waits for the round in progress and sends nothing more. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.rounds.settled();
  }

  private dueRows(): DueRow[] {
    const locations = this.ctx.stmt("SELECT DISTINCT location_id FROM postback_deliveries WHERE status = 'pending'").all() as { location_id: string }[];
    const out: DueRow[] = [];
    for (const { location_id } of locations) {
      if (out.length >= ROUND) break;
      const rows = this.ctx
        .stmt(`SELECT d.id, d.postback_config_id, d.location_id, d.type, d.resource, d.data, d.number_of_attempts, d.attempts_log,
            c.url, c.basic_auth_username, c.basic_auth_password, c.number_of_attempts AS max_attempts, c.attempt_interval
          FROM postback_deliveries d LEFT JOIN postback_configs c ON c.id = d.postback_config_id
          WHERE d.status = 'pending' AND d.location_id = ? AND d.next_attempt_ms <= ? ORDER BY d.next_attempt_ms, d.rowid LIMIT ?`)
        .all(location_id, locationNowMs(this.ctx, location_id), ROUND - out.length) as DueRow[];
      out.push(...rows);
    }
    return out;
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const rows = this.dueRows();
      if (rows.length === 0) return this.armRetryTimer();
      const outcomes: Outcome[] = [];
      let next = 0;
      const worker = async () => {
        while (next < rows.length) {
          const row = rows[next++] as DueRow;
          const attemptTs = this.ctx.locationNow(row.location_id);
          const attemptMs = locationNowMs(this.ctx, row.location_id);
          if (row.url === null) {
            outcomes.push({ row, attemptTs, attemptMs, result: null });
            continue;
          }
          const result = await postForm(
            row.url,
            { type: row.type, resource: row.resource, number_of_attempts: String(row.number_of_attempts + 1), data: row.data },
            { username: row.basic_auth_username, password: openColumnSecret(this.ctx, row.basic_auth_password) },
            this.timeoutMs,
          );
          outcomes.push({ row, attemptTs, attemptMs, result });
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rows.length) }, worker));
      this.record(outcomes);
    }
  }

  /**
   * Arms one timer for the earliest pending retry of any location (its due moment in that
   * location's time, turned into a delay from now); the poll tick stays as a safety net.
   */
  private armRetryTimer(): void {
    clearTimeout(this.retryTimer);
    if (this.closed) return;
    const firsts = this.ctx
      .stmt("SELECT location_id, MIN(next_attempt_ms) AS due FROM postback_deliveries WHERE status = 'pending' GROUP BY location_id")
      .all() as { location_id: string; due: number | null }[];
    let delay = Infinity;
    for (const f of firsts) if (f.due !== null) delay = Math.min(delay, f.due - locationNowMs(this.ctx, f.location_id));
    if (delay === Infinity) return;
    // Capped so a far retry (or a moved sandbox clock) is looked at again within a minute.
    this.retryTimer = setTimeout(() => void this.pump(), Math.min(Math.max(0, delay), 60_000));
    this.retryTimer.unref();
  }

  /** Records a round's outcomes in one write. */
  private record(outcomes: Outcome[]): void {
    const upd = this.ctx.stmt(`UPDATE postback_deliveries SET number_of_attempts = ?, status = ?, next_attempt_ts = ?, next_attempt_ms = ?, last_status_code = ?, last_error = ?,
        attempts_log = ?, delivered_ts = ?, modified_ts = ? WHERE id = ? AND status = 'pending'`);
    const now = this.ctx.clock.now();
    this.ctx.db.transaction(() => {
      for (const { row, attemptTs, attemptMs, result } of outcomes) {
        if (!result) {
          upd.run(row.number_of_attempts, 'failed', null, null, null, OUTBOX_MSG.CONFIG_DELETED, row.attempts_log, null, now, row.id);
          continue;
        }
        const attempts = row.number_of_attempts + 1;
        const log = JSON.parse(row.attempts_log) as unknown[];
        log.push({ attempt: attempts, attempted_ts: attemptTs, status_code: result.statusCode, error: result.error, duration_ms: result.durationMs });
        const max = Math.max(1, row.max_attempts ?? 1);
        const interval = Math.max(1, row.attempt_interval ?? 1);
        const status: DeliveryStatus = result.ok ? 'delivered' : attempts >= max ? 'failed' : 'pending';
        const nextMs = status === 'pending' ? attemptMs + interval * 1000 : null;
        // next_attempt_ts (the API's whole seconds) never reads earlier than the real due moment.
        upd.run(attempts, status, nextMs === null ? null : Math.ceil(nextMs / 1000), nextMs, result.statusCode, result.error, JSON.stringify(log), result.ok ? attemptTs : null, now, row.id);
      }
    })();
  }
}

/**
 * Seals the receiver passwords an older data folder kept in plaintext (the engine now runs
 * with the app's key). secure_delete zeroes the old bytes instead of leaving them in a
 * free page of the file.
 */
export function sealStoredPasswords(ctx: EngineContext): void {
  if (!ctx.options.vaultKey) return;
  const rows = (ctx.stmt("SELECT id, basic_auth_password FROM postback_configs WHERE basic_auth_password IS NOT NULL AND basic_auth_password <> ''").all() as {
    id: string;
    basic_auth_password: string;
  }[]).filter((r) => !isSealed(r.basic_auth_password));
  if (rows.length === 0) return;
  const was = ctx.db.pragma('secure_delete', { simple: true }) as number;
  ctx.db.pragma('secure_delete = ON');
  try {
    ctx.db.transaction(() => {
      for (const r of rows) ctx.stmt('UPDATE postback_configs SET basic_auth_password = ? WHERE id = ?').run(sealColumnSecret(ctx, r.basic_auth_password), r.id);
    })();
  } finally {
    ctx.db.pragma(`secure_delete = ${was ? 'ON' : 'OFF'}`);
  }
}

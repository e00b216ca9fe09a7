/**
 * The event log: pushes (a register's outbox) and pulls (what the others did).
 *
 * A push runs in one transaction that first takes the event log's advisory lock
 * (store-database.ts EVENTS_LOCK), so seq is handed out in commit order: a pull "after N" that
 * saw N can never miss a row that commits later with a smaller seq (a bigserial's classic gap,
 * where two pushes take 11 and 12 and 12 commits first). Two server processes on one database
 * share the lock. Seq is max + 1 under it, so it has no holes either (a sequence would skip the
 * numbers of duplicates and rolled-back pushes). Events already stored (a push repeated after a
 * kill or a lost answer) are skipped by id; the projections (store-projections.ts) follow in the
 * same transaction, and NOTIFY wakes every waiting pull on every server process at commit.
 */
import { randomUUID } from 'node:crypto';
import { FACT_BODY_SCHEMAS } from '../../shared/store/store-fact-bodies';
import { PULLED_KINDS, SHARED_ROW_TABLES, type PullAnswer, type PushAnswer, type PushedEvent, type ServerKind, type StoreEvent } from '../../shared/store/store-wire';
import { inTransaction, lockEvents, type StoreClient, type StorePool } from './store-database';
import { STORE_ERR, StoreError } from './store-errors';
import { project, type StoredEvent } from './store-projections';

/** The channel NOTIFY and LISTEN use; the payload is the newest seq. */
export const EVENTS_CHANNEL = 'store_events';

const KEY_COLUMNS = new Map<string, readonly string[]>(SHARED_ROW_TABLES.map((t) => [t.table, t.key]));

/**
 * What the zod schema cannot say: an event id is the pushing register's (`<registerId>:…`, so two
 * registers can never take each other's), a row's key matches its key columns, an upsert carries
 * the row and a delete none, and a fact's body is one the reports can read (store-fact-bodies.ts).
 * Answers the refusals by field (`events.3.key`), empty when all is well.
 */
export function checkPushedEvents(registerId: string, events: readonly PushedEvent[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  events.forEach((e, i) => {
    if (!e.id.startsWith(`${registerId}:`)) add(`events.${i}.id`, `An event's id starts with the id of the register that made it (${registerId}:).`);
    if (e.type === 'row') {
      const cols = KEY_COLUMNS.get(e.table)!;
      if (e.key.length !== cols.length) add(`events.${i}.key`, `A ${e.table} key has ${cols.length === 1 ? 'one value' : `${cols.length} values`} (${cols.join(', ')}).`);
      if ((e.op === 'upsert') !== (e.row !== null)) add(`events.${i}.row`, STORE_ERR.rowMissing);
      else if (e.row && cols.some((c, k) => e.row![c] !== e.key[k])) add(`events.${i}.key`, STORE_ERR.keyMismatch);
    } else {
      const r = FACT_BODY_SCHEMAS[e.kind].safeParse(e.body);
      if (!r.success) for (const issue of r.error.issues) add(`events.${i}.body${issue.path.length ? `.${issue.path.join('.')}` : ''}`, issue.message);
    }
  });
  return errors;
}

/** The store's newest seq (0 before the first event). */
export async function lastSeq(q: Pick<StoreClient, 'query'>): Promise<number> {
  return (await q.query<{ seq: number }>('SELECT COALESCE(MAX(seq), 0)::bigint AS seq FROM store_events')).rows[0]!.seq;
}

/** An event as it is inserted: a stored event before the lock gives it its seq and the server its clock. */
type EventRow = Omit<StoredEvent, 'seq' | 'server_ts'>;

/** Inserts events after the newest (the caller holds the lock); answers them with their seq. */
async function insertEvents(client: StoreClient, rows: readonly EventRow[], serverTs: number): Promise<StoredEvent[]> {
  const base = await lastSeq(client);
  const stored = rows.map((r, i) => ({ ...r, seq: base + i + 1, server_ts: serverTs }));
  if (stored.length === 0) return [];
  await client.query(
    `INSERT INTO store_events (seq, id, register_id, type, kind, key, op, body, server_ts)
     SELECT u.seq, u.id, u.register_id, u.type, u.kind, u.key, u.op, u.body, $9
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::text[], $8::jsonb[]) AS u (seq, id, register_id, type, kind, key, op, body)
     ON CONFLICT (id) DO NOTHING`,
    [
      stored.map((s) => s.seq),
      stored.map((s) => s.id),
      stored.map((s) => s.register_id),
      stored.map((s) => s.type),
      stored.map((s) => s.kind),
      stored.map((s) => JSON.stringify(s.key)),
      stored.map((s) => s.op),
      stored.map((s) => (s.body === null ? null : JSON.stringify(s.body))),
      serverTs,
    ],
  );
  return stored;
}

async function notify(client: StoreClient, seq: number): Promise<void> {
  await client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, String(seq)]);
}

/** Stores a register's events once each, with their projections, in one transaction. */
export async function pushEvents(pool: StorePool, registerId: string, events: readonly PushedEvent[]): Promise<PushAnswer> {
  const errors = checkPushedEvents(registerId, events);
  if (Object.keys(errors).length > 0) throw new StoreError(400, errors);
  return inTransaction(pool, async (client) => {
    await lockEvents(client);
    const ids = [...new Set(events.map((e) => e.id))];
    const known = new Set((await client.query<{ id: string }>('SELECT id FROM store_events WHERE id = ANY($1::text[])', [ids])).rows.map((r) => r.id));
    const fresh: EventRow[] = [];
    for (const e of events) {
      if (known.has(e.id)) continue;
      known.add(e.id);
      fresh.push(
        e.type === 'row'
          ? { id: e.id, register_id: registerId, type: 'row', kind: e.table, key: e.key, op: e.op, body: e.row, seenSeq: e.seenSeq }
          : { id: e.id, register_id: registerId, type: 'fact', kind: e.kind, key: e.key, op: null, body: e.body },
      );
    }
    if (fresh.length === 0) return { accepted: 0, lastSeq: await lastSeq(client) };
    const serverTs = Date.now();
    const stored = await insertEvents(client, fresh, serverTs);
    await project(client, registerId, stored, serverTs);
    const newest = stored[stored.length - 1]!.seq;
    await notify(client, newest);
    return { accepted: stored.length, lastSeq: newest };
  });
}

/** An event the server makes itself (a register joined, renamed or removed; the store's day closed). The caller holds the lock. */
export async function appendServerEvent(client: StoreClient, kind: ServerKind, key: string, body: Record<string, unknown>, serverTs: number): Promise<number> {
  const [stored] = await insertEvents(client, [{ id: `server:${randomUUID()}`, register_id: null, type: 'server', kind, key, op: null, body }], serverTs);
  await notify(client, stored!.seq);
  return stored!.seq;
}

const PULLED = [...PULLED_KINDS];

/**
 * The events after `after` a register applies: shared rows, the stock ledger and the server's
 * own events. Its own facts are left out (it has them already); its own row edits are not: a row
 * it changed while away may reach the server after another register's change to the same row,
 * and the register must apply both in the store's order to end, like every other register, with
 * the later one (the rule "the later by the server's clock wins" holds on every register, not
 * only on the server). `lastSeq` is read first and the events are
 * taken up to it, so an answer with fewer than `limit` events covers everything through
 * `lastSeq` (the lock makes seq follow commit order: nothing at or below it commits later).
 */
export async function pullEvents(pool: StorePool, registerId: string, after: number, limit: number): Promise<PullAnswer> {
  const newest = await lastSeq(pool);
  if (newest <= after) return { events: [], lastSeq: newest };
  const { rows } = await pool.query<EventRow & { seq: number; server_ts: number }>(
    `SELECT seq, id, register_id, type, kind, key, op, body, server_ts FROM store_events
      WHERE seq > $1 AND seq <= $2 AND kind = ANY($3::text[]) AND (register_id IS DISTINCT FROM $4 OR type = 'row')
      ORDER BY seq LIMIT $5`,
    [after, newest, PULLED, registerId, limit],
  );
  return { events: rows.map(toStoreEvent), lastSeq: newest };
}

function toStoreEvent(r: EventRow & { seq: number; server_ts: number }): StoreEvent {
  return {
    seq: r.seq,
    id: r.id,
    registerId: r.register_id,
    type: r.type,
    kind: r.kind,
    key: r.key as StoreEvent['key'],
    ...(r.op ? { op: r.op } : {}),
    body: r.body,
    serverTs: r.server_ts,
  };
}

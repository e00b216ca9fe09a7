/**
 * The store server's PostgreSQL (issue 24): a connection pool and the schema's forward-only
 * migrations. PostgreSQL is the server's only state: its certificate, the registers, the event
 * log and the projections the reports read all live here, so any number of server processes
 * on one database serve the same store.
 *
 * Migrations: `STORE_MIGRATIONS` is an array of SQL steps, never edited once shipped (a change
 * is a new step at the end). `store_schema` holds how many have run. They run on start under a
 * session advisory lock, so two processes starting at once migrate once: the second waits for
 * the lock, then finds the version already up to date. Each step commits with its version
 * number, so a crash mid-way resumes at the step that did not commit.
 */
import pg from 'pg';

/**
 * bigint columns (seq, ms timestamps, cents sums cast to bigint) as JS numbers: every value the
 * store holds is far below 2^53. Set on this pool only (pg's global parsers stay as they are).
 */
const INT8_OID = 20;
const storeTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format ?? 'text'))) as typeof pg.types.getTypeParser,
};

/** Advisory lock keys (two-int form): one namespace for Ringup's store, one key per purpose. */
export const LOCK_NAMESPACE = 0x52696e67; // 'Ring'
/** Held (per transaction) by every write that adds to the event log or the audit chain: seq and the chain follow commit order. */
export const EVENTS_LOCK = 1;
/** Held (per session) while migrating. */
export const MIGRATION_LOCK = 2;
/** Held (per transaction) while the store's certificate is made, so two first starts make one. */
export const IDENTITY_LOCK = 3;

export type StorePool = pg.Pool;
export type StoreClient = pg.PoolClient;

export function openStorePool(databaseUrl: string, max = 10): StorePool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, types: storeTypes, connectionTimeoutMillis: 10_000 });
  // An idle client whose server went away (PostgreSQL restarted) must not take the process down: the next query reconnects.
  pool.on('error', () => {});
  return pool;
}

export async function inTransaction<T>(pool: StorePool, work: (client: StoreClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** Takes the event log's lock for the rest of this transaction. */
export async function lockEvents(client: StoreClient): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_NAMESPACE, EVENTS_LOCK]);
}

/**
 * The schema, one step a version. Times are ms since the epoch (bigint); money is integer cents.
 * Step 1 is the store as first shipped; step 2 adds the server list (failover), the refunds
 * each register made and the indexes the figures read by.
 */
export const STORE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE store_identity (
     id integer PRIMARY KEY CHECK (id = 1),
     store_id text NOT NULL,
     name text NOT NULL,
     certificate_pem text NOT NULL,
     key_pem text NOT NULL,
     fingerprint text NOT NULL,
     created_ts bigint NOT NULL
   );
   -- One-time codes: only the code's proof is kept, and the store's PIN pepper ring sealed with the
   -- code (made on the register that invited), dropped once the code is used or expired.
   CREATE TABLE invitations (
     code_proof text PRIMARY KEY,
     sealed_pepper text,
     expires_ts bigint NOT NULL,
     setup boolean NOT NULL DEFAULT false,
     made_by text,
     used_ts bigint,
     used_by text
   );
   CREATE TABLE registers (
     id text PRIMARY KEY,
     name text NOT NULL,
     token_hash text UNIQUE,
     joined_ts bigint NOT NULL,
     last_seen_ts bigint,
     waiting integer NOT NULL DEFAULT 0,
     removed_ts bigint
   );
   -- The store's truth: every event, numbered in commit order (seq is given under EVENTS_LOCK).
   CREATE TABLE store_events (
     seq bigint PRIMARY KEY,
     id text NOT NULL UNIQUE,
     register_id text,
     type text NOT NULL CHECK (type IN ('row', 'fact', 'server')),
     kind text NOT NULL,
     key jsonb NOT NULL,
     op text CHECK (op IN ('upsert', 'delete')),
     body jsonb,
     server_ts bigint NOT NULL
   );
   -- Projections, written in the same transaction as the events they come from.
   CREATE TABLE shared_rows (
     tbl text NOT NULL,
     key jsonb NOT NULL,
     row jsonb,
     seq bigint NOT NULL,
     register_id text,
     server_ts bigint NOT NULL,
     PRIMARY KEY (tbl, key)
   );
   CREATE TABLE audit_log (
     seq bigint PRIMARY KEY,
     ts bigint NOT NULL,
     server_ts bigint NOT NULL,
     register_id text,
     register_seq bigint,
     kind text NOT NULL,
     user_id text,
     user_name text,
     amount_cents bigint,
     transaction_id text,
     detail text NOT NULL DEFAULT '',
     event_seq bigint,
     prev_hash text NOT NULL,
     hash text NOT NULL,
     UNIQUE (register_id, register_seq)
   );
   CREATE FUNCTION store_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN RAISE EXCEPTION 'the store''s audit log is append-only'; END $$;
   CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION store_audit_append_only();
   CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION store_audit_append_only();
   -- A closed cart as last pushed (a refund sends it again), with the money the figures add.
   CREATE TABLE sales (
     register_id text NOT NULL,
     cart_id text NOT NULL,
     status text NOT NULL,
     closed_ts bigint,
     card_cents bigint NOT NULL,
     cash_cents bigint NOT NULL,
     tax_cents bigint NOT NULL,
     tip_cents bigint NOT NULL,
     body jsonb NOT NULL,
     seq bigint NOT NULL,
     PRIMARY KEY (register_id, cart_id)
   );
   CREATE TABLE cash_movements (
     register_id text NOT NULL,
     key text NOT NULL,
     cart_id text,
     kind text NOT NULL,
     cents bigint NOT NULL,
     ts bigint NOT NULL,
     seq bigint NOT NULL,
     PRIMARY KEY (register_id, key)
   );
   CREATE TABLE stock_movements (
     id text PRIMARY KEY,
     register_id text NOT NULL,
     item_id text NOT NULL,
     variant_id text,
     delta integer NOT NULL,
     reason text NOT NULL,
     ts bigint NOT NULL,
     seq bigint NOT NULL
   );
   CREATE TABLE z_reports (
     register_id text NOT NULL,
     number integer NOT NULL,
     from_ts bigint NOT NULL,
     to_ts bigint NOT NULL,
     net_cents bigint NOT NULL,
     counted_cents bigint,
     expected_cents bigint,
     store_day integer,
     report jsonb,
     seq bigint NOT NULL,
     PRIMARY KEY (register_id, number)
   );
   CREATE TABLE store_days (
     number integer PRIMARY KEY,
     closed_ts bigint NOT NULL,
     closed_by text NOT NULL,
     counts jsonb NOT NULL,
     seq bigint NOT NULL
   );`,
  // Several server processes on one database (failover): each records where it answers; the join
  // answer lists them. The figures read sales, cash and Z reports by time and by store day.
  `CREATE TABLE store_servers (
     address text PRIMARY KEY,
     instance text NOT NULL,
     started_ts bigint NOT NULL,
     seen_ts bigint NOT NULL
   );
   CREATE INDEX sales_closed ON sales (closed_ts) WHERE status IN ('paid', 'due');
   CREATE INDEX cash_movements_ts ON cash_movements (ts);
   CREATE INDEX z_reports_store_day ON z_reports (store_day) WHERE store_day IS NOT NULL;
   CREATE INDEX store_events_register ON store_events (register_id, seq);
   -- Card refunds as each register made them (a refund of another register's sale included: the
   -- store's shared gateway), once per register and refund; ts is the register's created_ts in ms.
   -- The figures count a refund when it gives back a card tender of a paid cart (found by the
   -- tenders' transaction ids, hence the GIN index).
   CREATE TABLE refunds (
     register_id text NOT NULL,
     refund_id text NOT NULL,
     original_id text NOT NULL,
     cents bigint NOT NULL,
     ts bigint NOT NULL,
     seq bigint NOT NULL,
     PRIMARY KEY (register_id, refund_id)
   );
   CREATE INDEX refunds_ts ON refunds (ts);
   CREATE INDEX sales_tenders ON sales USING gin ((body -> 'tenders') jsonb_path_ops);`,
];

export const STORE_SCHEMA_VERSION = STORE_MIGRATIONS.length;

/** Runs the steps not yet run; answers the version before and after. `steps` is for tests (an older release's list). */
export async function migrateStore(pool: StorePool, steps: readonly string[] = STORE_MIGRATIONS): Promise<{ from: number; to: number }> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS store_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)');
      await client.query('INSERT INTO store_schema (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING');
      const from = (await client.query<{ version: number }>('SELECT version FROM store_schema WHERE id = 1')).rows[0]!.version;
      if (from > steps.length) throw new Error(`The store's database is at schema version ${from}, newer than this store server knows (${steps.length}): run the newer store server.`);
      for (let v = from; v < steps.length; v++) {
        await client.query('BEGIN');
        try {
          await client.query(steps[v]!);
          await client.query('UPDATE store_schema SET version = $1 WHERE id = 1', [v + 1]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw new Error(`Store database migration ${v + 1} failed; nothing of it was kept: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
        }
      }
      return { from, to: Math.max(from, steps.length) };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, MIGRATION_LOCK]).catch(() => {});
    }
  } finally {
    client.release();
  }
}

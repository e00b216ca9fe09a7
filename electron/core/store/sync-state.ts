/**
 * The register's side of its store, one row of `sync_state` (sync-capture.ts): whether it is in a
 * store (the capture triggers read `joined` and `applying` themselves), who it is there, where the
 * store's servers are and the certificate they must show, the last store seq applied, and two
 * pieces of work that must survive a kill: a reset still to do (a register joining an existing
 * store drops its own users, settings and catalogue when it first applies the store's) and a store
 * day still to close. The register's token is not here: it lives in the secret store.
 */
import type { JoinAnswer, StoreDay } from '../../../shared/store/store-wire';
import type { PosDatabase } from '../platform/pos-database';

/** The store's shared gateway as kept here: its API key is in the secret store (store-gateway.ts). */
export type StoreGateway = Omit<NonNullable<JoinAnswer['gateway']>, 'userApiKey'>;

export interface SyncState {
  /** In a store and capturing (false again once removed). */
  joined: boolean;
  removed: boolean;
  storeId: string | null;
  registerId: string | null;
  registerName: string | null;
  addresses: string[];
  certPem: string | null;
  lastSeq: number;
  lastSyncMs: number | null;
  resetPending: boolean;
  storeDayPending: StoreDay | null;
  gateway: StoreGateway | null;
}

interface Row {
  joined: number;
  removed: number;
  store_id: string | null;
  register_id: string | null;
  register_name: string | null;
  addresses: string;
  cert_pem: string | null;
  last_seq: number;
  last_sync_ms: number | null;
  reset_pending: number;
  store_day_pending: string | null;
  gateway: string | null;
}

const parse = <T>(s: string | null, fallback: T): T => {
  if (s === null) return fallback;
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
};

export function readSyncState(db: PosDatabase): SyncState {
  const r = db.prepare('SELECT * FROM sync_state WHERE id = 1').get() as Row;
  return {
    joined: r.joined === 1,
    removed: r.removed === 1,
    storeId: r.store_id,
    registerId: r.register_id,
    registerName: r.register_name,
    addresses: parse<string[]>(r.addresses, []),
    certPem: r.cert_pem,
    lastSeq: r.last_seq,
    lastSyncMs: r.last_sync_ms,
    resetPending: r.reset_pending === 1,
    storeDayPending: parse<StoreDay | null>(r.store_day_pending, null),
    gateway: parse<StoreGateway | null>(r.gateway, null),
  };
}

/** Joined: who this register is in the store. `resetPending`: it joined a store that already had registers. */
export function writeJoined(db: PosDatabase, j: { storeId: string; registerId: string; registerName: string; addresses: string[]; certPem: string; lastSeq: number; resetPending: boolean; gateway: StoreGateway | null }): void {
  db.prepare(
    `UPDATE sync_state SET joined = 1, applying = 0, removed = 0, store_id = ?, register_id = ?, register_name = ?, addresses = ?, cert_pem = ?, last_seq = ?, last_sync_ms = NULL,
       reset_pending = ?, store_day_pending = NULL, gateway = ? WHERE id = 1`,
  ).run(j.storeId, j.registerId, j.registerName, JSON.stringify(j.addresses), j.certPem, j.lastSeq, j.resetPending ? 1 : 0, j.gateway ? JSON.stringify(j.gateway) : null);
}

export function setApplying(db: PosDatabase, on: boolean): void {
  db.prepare('UPDATE sync_state SET applying = ? WHERE id = 1').run(on ? 1 : 0);
}

export function setLastSeq(db: PosDatabase, seq: number): void {
  db.prepare('UPDATE sync_state SET last_seq = MAX(last_seq, ?) WHERE id = 1').run(seq);
}

export function setLastSync(db: PosDatabase, ms: number): void {
  db.prepare('UPDATE sync_state SET last_sync_ms = ? WHERE id = 1').run(ms);
}

export function setRegisterName(db: PosDatabase, name: string): void {
  db.prepare('UPDATE sync_state SET register_name = ? WHERE id = 1').run(name);
}

export function setAddresses(db: PosDatabase, addresses: string[]): void {
  db.prepare('UPDATE sync_state SET addresses = ? WHERE id = 1').run(JSON.stringify(addresses));
}

export function setResetDone(db: PosDatabase): void {
  db.prepare('UPDATE sync_state SET reset_pending = 0 WHERE id = 1').run();
}

export function setStoreDayPending(db: PosDatabase, day: StoreDay | null): void {
  db.prepare('UPDATE sync_state SET store_day_pending = ? WHERE id = 1').run(day ? JSON.stringify(day) : null);
}

/**
 * A manager removed this register from the store: it stops syncing and says so, and captures
 * nothing more (joined = 0 stops the triggers). What waited in its outbox stays on it.
 */
export function setRemoved(db: PosDatabase): void {
  db.prepare('UPDATE sync_state SET removed = 1, joined = 0 WHERE id = 1').run();
}

/** Changes made here and not yet at the store server. */
export function outboxCount(db: PosDatabase): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM sync_outbox').get() as { n: number }).n;
}

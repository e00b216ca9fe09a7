/**
 * This register as one of a store's registers (issue 24): what the core holds of its store —
 * the status, the sync with the store server (store-sync.ts) while it is in a store, the join and
 * the invite (store-join.ts), the store's Z on this register (store-day-close.ts) — and what the
 * `store:*` channels ask of the store server (store-handlers.ts words the answers).
 *
 * After a batch of pulled changes is applied, what shows them follows at once: the store
 * settings' cache is read again (`settings:changed`), sessions of users removed or re-roled
 * elsewhere end and the sign-in lists follow (`auth:users-changed`), and the sale screen and the
 * catalogue screens read the catalogue again (`catalogue:changed`).
 *
 * A copied data folder (register-binding.ts) does not sync: it is not the register it was copied from.
 */
import { STORE_MSG, type RegisterView, type StoreDayView, type StoreInvitation, type StoreReport, type StoreStatus } from '../../../shared/ipc/store';
import type { DayReport } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import { SHARED_ROW_TABLE_NAMES, type StoreRegisterRow } from '../../../shared/store/store-wire';
import type { SecretStore } from '../../secrets/secret-store';
import type { AuditLog } from '../audit/audit-log';
import type { PinHasher } from '../auth/pin-hash';
import type { UserDirectory } from '../auth/users';
import type { CoreEvents } from '../platform/events';
import type { PosDatabase } from '../platform/pos-database';
import type { ZClose } from '../reports/reports';
import type { StoreSettingsStore } from '../settings/store-settings';
import { EventApplier, type Applied } from './apply-events';
import { OutboxReader } from './outbox-reader';
import { StoreApi, type StoreDayListed } from './store-api';
import { StoreDayCloser } from './store-day-close';
import { inviteRegister, joinStore, STORE_TOKEN_SECRET } from './store-join';
import { StoreSync } from './store-sync';
import { StoreAwayError, StoreLink, StoreRefusal } from './store-tls';
import { outboxCount, readSyncState, setRegisterName, setRemoved, type SyncState } from './sync-state';
import { SyncStatus } from './sync-status';

const CATALOGUE_TABLES = new Set<string>([...SHARED_ROW_TABLE_NAMES.filter((t) => t !== 'settings' && t !== 'pos_users'), 'stock_movements']);

/** How long a join waits for the store's users, settings and catalogue to arrive before answering (they keep coming after). */
export const JOIN_CATCH_UP_MS = 20_000;
/** How long closing the store's day waits for this register's own Z (it is made as soon as the store day is pulled). */
export const OWN_Z_WAIT_MS = 20_000;

export interface StoreRegisterDeps {
  db: PosDatabase;
  secrets: SecretStore;
  events: CoreEvents;
  audit: AuditLog;
  pins: PinHasher;
  users: UserDirectory;
  settings: StoreSettingsStore;
  closeZ: (z: ZClose) => Promise<Result<DayReport>>;
  /** A copied data folder: it shows its store but never syncs. */
  copy: boolean;
  /** The gateway's approved card money (cents) in a period (unix seconds), when this register's gateway is the store's shared one; else null. */
  gatewayCardCents?: (from: number, to: number) => Promise<number | null>;
  /** Keep to the address typed at the join (store-join.ts). */
  typedAddressOnly?: boolean;
  tickMs?: number;
  backoffMaxMs?: number;
  timeoutMs?: number;
  pullWaitMs?: number;
  now?: () => number;
}

/** What a channel answers when the store server could not be asked. */
function refused(err: unknown): Result<never> {
  if (err instanceof StoreRefusal) {
    if (err.status === 401) return fail('removed', STORE_MSG.removed);
    if (err.status === 404) return fail('not_found', STORE_MSG.unknownRegister);
    return fail('refused', err.message, err.body?.errors);
  }
  if (err instanceof StoreAwayError) return fail('away', STORE_MSG.away);
  throw err;
}

const startOfLocalDay = (ms: number) => {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return Math.floor(d.getTime() / 1000);
};

export class StoreRegister {
  private readonly status: SyncStatus;
  private sync: StoreSync | null = null;
  private api: StoreApi | null = null;
  private token: string | null = null;
  private readonly reader: OutboxReader;
  private readonly applier: EventApplier;
  private readonly closer: StoreDayCloser;
  private readonly now: () => number;

  constructor(private readonly deps: StoreRegisterDeps) {
    this.now = deps.now ?? Date.now;
    this.status = new SyncStatus((s) => deps.events.emit('store:status', s), this.now);
    this.reader = new OutboxReader(deps.db);
    this.applier = new EventApplier(deps.db, deps.audit);
    this.closer = new StoreDayCloser({ db: deps.db, audit: deps.audit, closeZ: deps.closeZ, onClosed: () => this.sync?.kick() });
  }

  /** At the core's start: the status as the database has it, and the sync when in a store. */
  async start(): Promise<void> {
    const state = readSyncState(this.deps.db);
    this.status.set(this.statusOf(state));
    if (state.joined && !this.deps.copy) await this.startSync(state);
  }

  async close(): Promise<void> {
    this.closer.stop();
    await this.stopSync();
  }

  private async stopSync(): Promise<void> {
    await this.sync?.stop();
    this.sync = null;
  }

  current(): StoreStatus {
    return this.status.get();
  }

  private statusOf(s: SyncState): StoreStatus {
    if (!s.joined && !s.removed) return { ...this.status.get(), joined: false, connection: 'none', registerId: null, registerName: null, address: null, waiting: 0, lastSyncMs: null, lastSeq: 0 };
    return {
      joined: true,
      connection: s.removed ? 'removed' : 'away',
      registerId: s.registerId,
      registerName: s.registerName,
      address: s.addresses[0] ?? null,
      waiting: outboxCount(this.deps.db),
      lastSyncMs: s.lastSyncMs,
      lastSeq: s.lastSeq,
    };
  }

  private async startSync(state: SyncState): Promise<void> {
    this.token = (await this.deps.secrets.get(STORE_TOKEN_SECRET))?.toString('utf8') ?? null;
    const link = new StoreLink({
      addresses: state.addresses,
      certPem: state.certPem ?? '',
      token: () => this.token,
      waiting: () => this.reader.count(),
      ...(this.deps.timeoutMs ? { timeoutMs: this.deps.timeoutMs } : {}),
    });
    this.api = new StoreApi(link);
    this.sync = new StoreSync({
      db: this.deps.db,
      api: this.api,
      reader: this.reader,
      applier: this.applier,
      status: this.status,
      registerId: state.registerId!,
      ...(this.deps.tickMs !== undefined ? { tickMs: this.deps.tickMs } : {}),
      ...(this.deps.backoffMaxMs !== undefined ? { backoffMaxMs: this.deps.backoffMaxMs } : {}),
      ...(this.deps.pullWaitMs !== undefined ? { pullWaitMs: this.deps.pullWaitMs } : {}),
      onApplied: (a) => this.follow(a),
      onRemoved: () => void this.removed(),
      now: this.now,
    });
    this.sync.start();
    // A store day pulled before a kill, its Z not made yet.
    void this.closer.closePending();
  }

  /** What shows shared rows follows a batch applied (see the header). */
  private follow(a: Applied): void {
    const { events, settings, users } = this.deps;
    if (a.tables.has('settings')) {
      settings.forget();
      users.rearm();
      events.emit('settings:changed', settings.get());
    }
    if (a.tables.has('pos_users')) {
      users.followUsersTable();
      events.emit('auth:users-changed', users.list());
    }
    const catalogue = [...a.tables].filter((t) => CATALOGUE_TABLES.has(t));
    if (catalogue.length > 0) events.emit('catalogue:changed', { tables: catalogue });
    if (a.storeDay) void this.closer.closePending();
  }

  private async removed(): Promise<void> {
    setRemoved(this.deps.db);
    this.status.set({ connection: 'removed' });
    await this.deps.secrets.delete(STORE_TOKEN_SECRET);
    this.token = null;
  }

  /** Waits until `done()` holds (looked at every 20 ms), or `ms` passed; answers whether it held. */
  private async waitFor(done: () => boolean, ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (!done()) {
      if (Date.now() >= until) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
    return true;
  }

  /** The store, when in one and not removed: its api; else the sentence why not. */
  private joinedApi(): Result<{ api: StoreApi; state: SyncState }> {
    const state = readSyncState(this.deps.db);
    if (state.removed) return fail('removed', STORE_MSG.removed);
    if (!state.joined || !this.api) return fail('not_joined', STORE_MSG.notJoined);
    return ok({ api: this.api, state });
  }

  async join(args: { address: string; code: string; registerName: string }): Promise<Result<StoreStatus>> {
    const before = readSyncState(this.deps.db);
    if (before.joined) return fail('already_joined', STORE_MSG.alreadyJoined);
    const joined = await joinStore(
      { db: this.deps.db, secrets: this.deps.secrets, pins: this.deps.pins, ...(this.deps.timeoutMs ? { timeoutMs: this.deps.timeoutMs } : {}), ...(this.deps.typedAddressOnly ? { typedAddressOnly: true } : {}) },
      args,
    );
    if (!joined.ok) return joined;
    // A removed register joining again (store-join.ts, point 4): its old loops stopped with the 401; none run now.
    await this.stopSync();
    const state = readSyncState(this.deps.db);
    this.status.set(this.statusOf(state));
    await this.startSync(state);
    // A later register answers once the store's users, settings and catalogue are here (its own are gone then).
    if (state.resetPending) await this.waitFor(() => !readSyncState(this.deps.db).resetPending, JOIN_CATCH_UP_MS);
    return ok(this.status.get());
  }

  async invite(): Promise<Result<StoreInvitation>> {
    const j = this.joinedApi();
    if (!j.ok) return j;
    return inviteRegister({ secrets: this.deps.secrets, api: j.value.api, certPem: j.value.state.certPem ?? '' });
  }

  async registers(): Promise<Result<RegisterView[]>> {
    const j = this.joinedApi();
    if (!j.ok) return j;
    try {
      const answer = await j.value.api.registers();
      return ok(answer.value.registers.filter((r) => !r.removed).map((r) => this.viewOf(r, j.value.state.registerId)));
    } catch (err) {
      return refused(err);
    }
  }

  private viewOf(r: StoreRegisterRow, me: string | null): RegisterView {
    return { id: r.id, name: r.name, thisRegister: r.id === me, connected: r.connected, lastSeenMs: r.lastSeenTs, waiting: r.waiting };
  }

  async rename(id: string, name: string): Promise<Result<RegisterView[]>> {
    const j = this.joinedApi();
    if (!j.ok) return j;
    try {
      await j.value.api.rename(id, name);
    } catch (err) {
      return refused(err);
    }
    if (id === j.value.state.registerId) {
      setRegisterName(this.deps.db, name);
      this.status.set({ registerName: name });
    }
    return this.registers();
  }

  async remove(id: string): Promise<Result<RegisterView[]>> {
    const j = this.joinedApi();
    if (!j.ok) return j;
    if (id === j.value.state.registerId) return fail('this_register', STORE_MSG.notThisOne);
    try {
      await j.value.api.remove(id);
    } catch (err) {
      return refused(err);
    }
    return this.registers();
  }

  /**
   * The period the store's report covers: since the store's last closed day (or local midnight
   * before the first). After a store day, `from` is left to the server: it counts each register
   * from the end of its own Z for that day (store-figures.ts), as its own X report does — a
   * boundary in whole seconds here would drop what was sold in the second the day was closed.
   */
  private async period(api: StoreApi): Promise<{ from: number | undefined; to: number }> {
    const days = (await api.days()).value;
    const last = days.reduce((m, d) => Math.max(m, d.closedTs), 0);
    const to = Math.floor(this.now() / 1000);
    return { from: last > 0 ? undefined : Math.min(startOfLocalDay(this.now()), to), to };
  }

  async report(): Promise<Result<StoreReport>> {
    const j = this.joinedApi();
    if (!j.ok) return j;
    try {
      const { api, state } = j.value;
      const { from, to } = await this.period(api);
      const [figures, regs] = await Promise.all([api.figures(from, to), api.registers()]);
      const f = figures.value;
      const gatewayCents = this.deps.gatewayCardCents ? await this.deps.gatewayCardCents(f.from, f.to) : null;
      const tendersCents = f.totals.cardCents;
      return ok({
        from: f.from,
        to: f.to,
        registers: f.registers.map((r) => ({ ...r, thisRegister: r.registerId === state.registerId })),
        totals: f.totals,
        cardCheck: { tendersCents, gatewayCents, matches: gatewayCents === null ? null : gatewayCents === tendersCents },
        behind: regs.value.registers.filter((r) => !r.removed && r.waiting > 0).map((r) => r.name),
      });
    } catch (err) {
      return refused(err);
    }
  }

  private dayView(d: StoreDayListed, names: Map<string, string>): StoreDayView {
    const name = (id: string) => names.get(id) ?? id;
    return { number: d.number, closedTs: d.closedTs, closedBy: d.closedBy, counts: d.counts, closed: (d.closed ?? []).map(name), waitingFor: (d.waitingFor ?? []).map(name) };
  }

  private async names(api: StoreApi): Promise<Map<string, string>> {
    return new Map((await api.registers()).value.registers.map((r) => [r.id, r.name]));
  }

  async days(): Promise<Result<StoreDayView[]>> {
    const j = this.joinedApi();
    if (!j.ok) return j;
    try {
      const [days, names] = await Promise.all([j.value.api.days(), this.names(j.value.api)]);
      return ok(days.value.map((d) => this.dayView(d, names)));
    } catch (err) {
      return refused(err);
    }
  }

  /**
   * The store's Z: the server makes the store day; every register closes its own day when it
   * applies it — this one too, and the answer waits for this register's own Z and its push.
   */
  async closeDay(counts: Array<{ registerId: string; countedCents: number }>, closedBy: string): Promise<Result<StoreDayView & { thisRegisterZ: DayReport | null }>> {
    const j = this.joinedApi();
    if (!j.ok) return j;
    const { api } = j.value;
    let day: StoreDayListed;
    try {
      day = (await api.closeDay({ counts, closedBy })).value;
    } catch (err) {
      return refused(err);
    }
    const ownZ = () => this.deps.db.prepare("SELECT report FROM z_reports WHERE json_extract(report, '$.storeDay') = ?").pluck().get(day.number) as string | undefined;
    await this.waitFor(() => ownZ() !== undefined, OWN_Z_WAIT_MS);
    const z = ownZ();
    // Its Z at the store before the answer, so the list of who closed includes this register.
    if (z) await this.waitFor(() => this.reader.newestSeq() === 0, 5_000);
    try {
      const [days, names] = await Promise.all([api.days(), this.names(api)]);
      const listed = days.value.find((d) => d.number === day.number) ?? day;
      return ok({ ...this.dayView(listed, names), thisRegisterZ: z ? (JSON.parse(z) as DayReport) : null });
    } catch {
      return ok({ ...this.dayView(day, new Map()), thisRegisterZ: z ? (JSON.parse(z) as DayReport) : null });
    }
  }
}

/**
 * Manage → Registers (issue 24). A register in no store shows the form that connects it to a
 * store server. A register in a store lists the store's registers — connected or away, last
 * sync, changes waiting — with Add (a one-time code for a new register), Rename and Remove. A
 * register a manager removed says so, in a sentence, above the same form: it sells on alone, and
 * joins the store again with a new code from Add.
 */
import { useEffect, useState } from 'react';
import { STORE_MSG, type RegisterView, type StoreStatus } from '../../../shared/ipc/contract';
import { ErrorNote } from '../sales/outcome-note';
import { AddRegisterPanel } from './add-register-panel';
import { JoinStoreForm } from './join-store-form';
import { RegisterRow, type LiveLine } from './register-row';
import { useRegistersStore } from './registers-store';
import { useStoreStatusStore } from './store-status-store';

/** How often the list asks the store server again while it is on screen (the others' connected/away change there). */
const RELOAD_MS = 5_000;

/** The screen's clock: "12 s ago" moves on by itself. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/** This register's line from the live status; another's from what the store server last saw. */
function liveOf(r: RegisterView, status: StoreStatus): LiveLine {
  if (r.thisRegister) return { connected: status.connection === 'connected', lastMs: status.lastSyncMs, waiting: status.waiting };
  return { connected: r.connected, lastMs: r.lastSeenMs, waiting: r.waiting };
}

/** Before the store server has answered once (it is away), this register is the one the screen knows. */
function thisRegisterOnly(status: StoreStatus): RegisterView {
  return { id: status.registerId ?? 'this', name: status.registerName ?? 'This register', thisRegister: true, connected: false, lastSeenMs: status.lastSyncMs, waiting: status.waiting };
}

function StoreRegisters({ status }: { status: StoreStatus }) {
  const { list, error, load } = useRegistersStore();
  const nowMs = useNow(1_000);
  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), RELOAD_MS);
    return () => clearInterval(t);
  }, [load]);
  return (
    <div className="registers-layout">
      <section className="panel" aria-labelledby="registers-title">
        <div className="tx-head">
          <h1 id="registers-title" className="section-title" tabIndex={-1} data-screen-focus>
            Registers
          </h1>
          {list && (
            <span className="muted" role="status" data-testid="registers-count">
              {list.length === 1 ? '1 register' : `${list.length} registers`}
            </span>
          )}
        </div>
        <p className="registers-server" data-testid="store-this-register">
          <span className={`dot dot-${status.connection === 'connected' ? 'ok' : 'starting'}`} aria-hidden="true" />
          <span>
            Store server <span className="mono">{status.address}</span> · {status.connection === 'connected' ? 'connected' : 'away'}
          </span>
        </p>
        {status.connection === 'away' && <p className="notice notice-warn">{STORE_MSG.away}</p>}
        <ErrorNote text={error === STORE_MSG.away && status.connection === 'away' ? null : error} />
        {list === null && !error ? (
          <p role="status">Asking the store server for its registers…</p>
        ) : (
          <ul className="register-list" aria-label="The store's registers">
            {(list ?? [thisRegisterOnly(status)]).map((r) => (
              <RegisterRow key={r.id} register={r} live={liveOf(r, status)} nowMs={nowMs} />
            ))}
          </ul>
        )}
        {list === null && error && <p className="muted">The store's other registers show here when the store server answers.</p>}
      </section>
      <AddRegisterPanel />
    </div>
  );
}

export function RegistersScreen() {
  const status = useStoreStatusStore((s) => s.status);
  const known = useStoreStatusStore((s) => s.known);
  const load = useStoreStatusStore((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);
  if (!known) return <p role="status">Asking the core about the store…</p>;
  if (!status.joined) return <JoinStoreForm />;
  if (status.connection === 'removed') {
    return (
      <JoinStoreForm
        notice={
          <p className="notice notice-warn" role="status" data-testid="store-removed">
            {STORE_MSG.removed}
          </p>
        }
      />
    );
  }
  return <StoreRegisters status={status} />;
}

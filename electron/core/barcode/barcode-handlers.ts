/**
 * The `barcode:*` channels (shared/ipc/barcode-scanners.ts): the installer registers, changes,
 * removes and tests serial barcode scanners; the core listens to each registered one
 * (barcode-listeners.ts). Who may call them and what is audited is their declaration; here,
 * the rules beyond the role: a path must be a place a device may be (device-places.ts), and
 * one scanner a path.
 */
import type { BarcodeScannerRecord, HandlerMap } from '../../../shared/ipc/contract';
import { BARCODE_SCANNER_MSG } from '../../../shared/ipc/barcode-scanners';
import { fail, ok } from '../../../shared/result';
import type { DevicePlaces } from '../../devices/device-places';
import { refuseAddress } from '../devices/address-refusal';
import { deviceCall } from '../devices/device-call';
import type { CoreEvents } from '../platform/events';
import type { PosDatabase } from '../platform/pos-database';
import { BarcodeListeners } from './barcode-listeners';
import { BarcodeScannerRows, type BarcodeScannerRow } from './barcode-scanner-rows';

type BarcodeHandlers = Pick<HandlerMap, Extract<keyof HandlerMap, `barcode:${string}`>>;

/** How long the installer's test waits for a code. */
export const BARCODE_TEST_WAIT_MS = 15_000;
export const BARCODE_BUSY = 'A barcode scanner test is already waiting for a scan. Scan something, or wait for it to end.';

export interface BarcodeDeps {
  db: PosDatabase;
  events: CoreEvents;
  places: DevicePlaces;
  retryMs?: number;
  testWaitMs?: number;
}

export function createBarcodeHandlers(deps: BarcodeDeps): { handlers: BarcodeHandlers; close(): Promise<void> } {
  const rows = new BarcodeScannerRows(deps.db);
  const listeners = new BarcodeListeners({ events: deps.events, places: deps.places, ...(deps.retryMs !== undefined ? { retryMs: deps.retryMs } : {}) });
  const record = (r: BarcodeScannerRow): BarcodeScannerRecord => ({ ...r, ...listeners.stateOf(r.id) });
  // The registered scanners are listened to from the start.
  void listeners.sync(rows.list());

  const handlers: BarcodeHandlers = {
    'barcode:scanners': async () => ok(rows.list().map(record)),
    'barcode:save': async (a) => {
      const refused = await refuseAddress(deps.places, { kind: 'serial', path: a.path });
      if (refused) return refused;
      const other = rows.atPath(a.path, a.id);
      if (other) return fail('validation', BARCODE_SCANNER_MSG.samePath(other.name), { path: [BARCODE_SCANNER_MSG.samePath(other.name)] });
      const saved = rows.save(a);
      if (!saved) return fail('not_found', BARCODE_SCANNER_MSG.missing);
      await listeners.sync(rows.list());
      return ok(record(saved));
    },
    'barcode:remove': async ({ id }) => {
      const gone = rows.remove(id);
      if (!gone) return fail('not_found', BARCODE_SCANNER_MSG.missing);
      const was = record(gone);
      await listeners.sync(rows.list());
      return ok(was);
    },
    'barcode:test': async ({ path, baud }) => {
      const refused = await refuseAddress(deps.places, { kind: 'serial', path });
      if (refused) return refused;
      if (listeners.busy) return fail('busy', BARCODE_BUSY);
      return deviceCall(async () => ok({ code: await listeners.testRead(path, baud, deps.testWaitMs ?? BARCODE_TEST_WAIT_MS) }));
    },
  };
  return { handlers, close: () => listeners.close() };
}

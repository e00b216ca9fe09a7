/**
 * The check scanner (a serial MICR reader), which the core talks to directly (no transaction
 * is stored): the installer's scanner screens — a scanner saved, the serial ports to choose
 * from, a test read — and the counter's scan of a check to pay by. One read at a time
 * (scanner-lock.ts); every serial path is held to the places devices may use.
 * Simplification: the counter uses the location's first active scanner with a serial path.
 */
import type { HandlerArg, HandlerResults, ScannedCheck } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import { CheckScannerDriver } from '../../devices/check-scanner';
import { openSerialLink } from '../../devices/device-link';
import type { DevicePlaces } from '../../devices/device-places';
import { DeviceError } from '../../devices/device-messages';
import type { UserDirectory } from '../auth/users';
import { deviceCall } from './device-call';
import { DEVICE_ERRORS } from './device-errors';
import { locQuery, scannerRecord, type Row } from './device-rows';
import { refuseAddress } from './address-refusal';
import type { ScannerLock } from './scanner-lock';

export interface CheckScanDeps {
  client: GatewayClient;
  users: UserDirectory;
  locationId: string | undefined;
  places: DevicePlaces;
  scanner: ScannerLock;
}

async function scanAt(path: string, waitMs: number): Promise<ScannedCheck> {
  const link = await openSerialLink(path).catch(() => {
    throw new DeviceError('unreachable', 'The check scanner cannot be reached. Check the cable and the port.');
  });
  const scanner = new CheckScannerDriver(link, 3000);
  try {
    await scanner.configure();
    const m = await scanner.scan(waitMs);
    return { routing: m.routing, account: m.account, checkNumber: m.checkNumber, micr: m.line };
  } finally {
    await scanner.close();
  }
}

export async function saveScanner(deps: Pick<CheckScanDeps, 'client' | 'users' | 'locationId' | 'places'>, a: HandlerArg<'devices:scanner-save'>): Promise<Result<HandlerResults['devices:scanner-save']>> {
  const { client } = deps;
  const refused = await refuseAddress(deps.places, { kind: 'serial', path: a.path });
  if (refused) return refused;
  return deviceCall(async () => {
    const body = { ...(a.id ? {} : locQuery(deps.locationId)), title: a.title, serial_number: a.serialNumber, scanner_model_id: a.modelId, serial_path: a.path };
    const r = a.id
      ? await client.request<{ scanner: Row }>('PUT', `/scanners/${a.id}`, { scanner: body })
      : await client.request<{ scanner: Row }>('POST', '/scanners', { scanner: body });
    return ok(scannerRecord(r.scanner));
  });
}

export async function serialPorts(deps: Pick<CheckScanDeps, 'users' | 'places'>): Promise<Result<HandlerResults['devices:serial-ports']>> {
  return ok(await deps.places.listSerialPorts());
}

export async function testScanner(deps: Pick<CheckScanDeps, 'users' | 'places' | 'scanner'>, { path }: HandlerArg<'devices:scanner-test'>): Promise<Result<ScannedCheck>> {
  const refused = await refuseAddress(deps.places, { kind: 'serial', path });
  if (refused) return refused;
  if (deps.scanner.busy) return fail('busy', DEVICE_ERRORS.scannerBusy);
  return deps.scanner.during(() => deviceCall(async () => ok(await scanAt(path, 15_000))));
}

export async function scanCheck(deps: CheckScanDeps): Promise<Result<ScannedCheck>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  if (deps.scanner.busy) return fail('busy', DEVICE_ERRORS.scannerBusy);
  return deps.scanner.during(() =>
    deviceCall(async () => {
      const sc = await deps.client.request<{ scanners: Row[] }>('GET', '/scanners', undefined, { ...locQuery(deps.locationId), page_size: 100, sort: 'created_ts' });
      const scanner = (sc.scanners ?? []).find((x) => (x.active === true || x.active === 1) && typeof x.serial_path === 'string' && x.serial_path);
      if (!scanner) return fail('no_scanner', DEVICE_ERRORS.noScanner);
      // A path saved before these rules (or straight into the gateway) is held to them too.
      const refused = await refuseAddress(deps.places, { kind: 'serial', path: String(scanner.serial_path) });
      if (refused) return refused;
      return ok(await scanAt(String(scanner.serial_path), 30_000));
    }),
  );
}

/**
 * The installer's terminal screens: what is set up (terminals, scanners, the applications,
 * manufacturers and scanner models to choose from, the serial numbers terminals reported), a
 * terminal saved, its connection tested, its TLS certificate read for pinning, and device terms
 * put to the customer on it. The installer or manager role is checked here, and every address
 * typed is held to the places devices may use before anything is saved, tested or opened.
 *
 * The connection test of a saved terminal at its saved address goes through the gateway (POST
 * /v2/terminals/{id}/initialize, which records last_registration_ts); an address not saved yet
 * is tested by the core directly (A00 initialize), where no transaction is stored.
 */
import type { DeviceChoice, HandlerArg, HandlerResults, TerminalTestResult } from '../../../shared/ipc/contract';
import { termsTextRefusal } from '../../../shared/ipc/devices';
import { effectiveTimeouts } from '../../../shared/payments/terminal-timeouts';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import { openLink, type DeviceAddress } from '../../devices/device-link';
import type { DevicePlaces } from '../../devices/device-places';
import { TerminalDriver } from '../../devices/terminal-driver';
import { presentedFingerprint } from '../../devices/terminal-tls';
import type { UserDirectory } from '../auth/users';
import type { CounterTerminal } from './counter-terminal';
import { deviceCall } from './device-call';
import { addressOf, locQuery, scannerRecord, toRecord, type Row } from './device-rows';
import { refuseAddress } from './address-refusal';

export interface TerminalSetupDeps {
  client: GatewayClient;
  /** Initialize and device terms wait on the terminal (and the customer, for terms). */
  routerClient: GatewayClient;
  users: UserDirectory;
  locationId: string | undefined;
  places: DevicePlaces;
  terminal: CounterTerminal;
}

export async function installerData(deps: Pick<TerminalSetupDeps, 'client' | 'users' | 'locationId' | 'terminal'>): Promise<Result<HandlerResults['devices:installer-data']>> {
  const { client } = deps;
  return deviceCall(async () => {
    const rows = await deps.terminal.rows();
    const apps = new Map<string, DeviceChoice>();
    const mfrs = new Map<string, DeviceChoice>();
    for (const t of rows) {
      const a = t.terminal_application as Row | null | undefined;
      const m = t.terminal_manufacturer as Row | null | undefined;
      if (a?.id) apps.set(String(a.id), { id: String(a.id), title: String(a.title), manufacturerId: String(a.terminal_manufacturer_id ?? '') });
      if (m?.id) mfrs.set(String(m.id), { id: String(m.id), title: String(m.title) });
    }
    const sc = await client.request<{ scanners: Row[] }>('GET', '/scanners', undefined, { ...locQuery(deps.locationId), page_size: 100, sort: 'created_ts' });
    const models = await client.request<{ scannermodels: Row[] }>('GET', '/scannermodels', undefined, { page_size: 100 }).catch(() => ({ scannermodels: [] as Row[] }));
    return ok({
      terminals: rows.map(toRecord),
      scanners: (sc.scanners ?? []).map(scannerRecord),
      applications: [...apps.values()],
      manufacturers: [...mfrs.values()],
      scannerModels: (models.scannermodels ?? []).map((m) => ({ id: String(m.id), title: String(m.title) })),
      reportedSerials: Object.fromEntries(rows.flatMap((t) => (typeof t.reported_serial_number === 'string' ? [[String(t.id), t.reported_serial_number]] : []))),
    });
  });
}

export async function saveTerminal(deps: Pick<TerminalSetupDeps, 'client' | 'users' | 'locationId' | 'places' | 'terminal'>, a: HandlerArg<'devices:terminal-save'>): Promise<Result<HandlerResults['devices:terminal-save']>> {
  const { client } = deps;
  const refused = await refuseAddress(deps.places, a.address);
  if (refused) return refused;
  return deviceCall(async () => {
    const tcp = a.address.kind === 'tcp' ? a.address : null;
    const body = {
      ...(a.id ? {} : locQuery(deps.locationId)),
      title: a.title,
      serial_number: a.serialNumber,
      communication_type: a.address.kind,
      local_ip_address: tcp ? tcp.host : null,
      port: tcp ? tcp.port : null,
      serial_path: a.address.kind === 'serial' ? a.address.path : null,
      // TLS pinned to the terminal's certificate (issue 20, point 1); off clears the pin too.
      tls: tcp?.tls ? 1 : 0,
      tls_fingerprint: tcp?.tls ? tcp.tls.fingerprint.toUpperCase() : null,
      terminal_application_id: a.applicationId,
      terminal_manufacturer_id: a.manufacturerId,
      terminal_timeouts: a.timeouts,
      tip_percents: a.tipPercents ? { percent_1: a.tipPercents[0], percent_2: a.tipPercents[1], percent_3: a.tipPercents[2] } : { percent_1: null, percent_2: null, percent_3: null },
      tip_enable: a.tipPercents ? 1 : 0,
    };
    const r = a.id
      ? await client.request<{ terminal: Row }>('PUT', `/terminals/${a.id}`, { terminal: body })
      : await client.request<{ terminal: Row }>('POST', '/terminals', { terminal: body });
    void deps.terminal.refresh();
    return ok(toRecord(r.terminal));
  });
}

export async function testTerminal(deps: Pick<TerminalSetupDeps, 'routerClient' | 'users' | 'places' | 'terminal'>, { address, terminalId }: HandlerArg<'devices:terminal-test'>): Promise<Result<TerminalTestResult>> {
  const refused = await refuseAddress(deps.places, address);
  if (refused) return refused;
  return deviceCall<TerminalTestResult>(async () => {
    // A saved terminal at its saved address: the gateway initializes it and records the
    // contact (last_registration_ts). An address not saved yet is tested directly.
    const saved = terminalId ? (await deps.terminal.rows()).find((t) => String(t.id) === terminalId) : undefined;
    const at = saved ? addressOf(saved) : null;
    const pin = (x: DeviceAddress) => (x.kind === 'tcp' && x.tls ? x.tls.fingerprint.toUpperCase() : null);
    const same = at !== null && (at.kind === 'tcp' ? address.kind === 'tcp' && address.host === at.host && address.port === at.port && pin(address) === pin(at) : address.kind === 'serial' && address.path === at.path);
    if (same) {
      const r = await deps.routerClient.request<{ terminalinfo: { serial_number: string; model: string; application: string; last_registration_ts: number } }>('POST', `/terminals/${terminalId}/initialize`);
      const i = r.terminalinfo;
      return ok({ serialNumber: i.serial_number, model: i.model, application: i.application, lastRegistrationTs: i.last_registration_ts });
    }
    const d = new TerminalDriver({ connect: () => openLink(address), settings: { timeouts: effectiveTimeouts(null), tipPercents: null } });
    return ok({ ...(await d.initialize()), lastRegistrationTs: null });
  });
}

export async function terminalCertificate(deps: Pick<TerminalSetupDeps, 'users' | 'places'>, { host, port }: HandlerArg<'devices:terminal-certificate'>): Promise<Result<HandlerResults['devices:terminal-certificate']>> {
  const refused = await refuseAddress(deps.places, { kind: 'tcp', host, port });
  if (refused) return refused;
  // The handshake only: the installer compares this with the terminal's own screen before pinning it.
  return deviceCall(async () => ok({ fingerprint: await presentedFingerprint(host, port) }));
}

export async function terminalTerms(deps: Pick<TerminalSetupDeps, 'users' | 'routerClient' | 'locationId'>, a: HandlerArg<'devices:terminal-terms'>): Promise<Result<HandlerResults['devices:terminal-terms']>> {
  const badText = termsTextRefusal(a.text);
  if (badText) return fail('bad_terms', badText, { text: [badText] });
  return deviceCall(async () => {
    const r = await deps.routerClient.request<{ deviceterm: { reason_code_id: number; signature: { signature?: string } | null } }>(
      'POST',
      '/deviceterms',
      { deviceterm: { ...locQuery(deps.locationId), terminal_id: a.terminalId, require_signature: a.requireSignature, terms_conditions: a.text } },
      { expand: 'signature' },
    );
    const sig = r.deviceterm.signature?.signature;
    return ok({ accepted: r.deviceterm.reason_code_id === 1000, signatureDataUrl: sig ? `data:image/png;base64,${sig}` : null });
  });
}

/**
 * `devices:terminal-status` and `devices:terminal-cancel`: the counter's terminal as the status
 * bar shows it (checked now), and Cancel of the sale on it. Cancel posts .../cancel naming the
 * sale (its transaction_api_id), so it also ends a sale that has not reached the terminal yet;
 * a store-and-forward read the core drives itself is cancelled by the core.
 */
import type { TerminalStatus } from '../../../shared/ipc/contract';
import { ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { UserDirectory } from '../auth/users';
import type { OfflineTerminal } from '../queue/offline-terminal-sale';
import type { CounterTerminal } from './counter-terminal';
import { deviceCall } from './device-call';

export interface TerminalStatusDeps {
  users: UserDirectory;
  terminal: CounterTerminal;
}

export async function terminalStatus(deps: TerminalStatusDeps): Promise<Result<TerminalStatus>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  return ok(await deps.terminal.refresh());
}

export interface TerminalCancelDeps extends TerminalStatusDeps {
  client: GatewayClient;
  offline?: Pick<OfflineTerminal, 'cancel'>;
}

export async function terminalCancel(deps: TerminalCancelDeps): Promise<Result<null>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  if (deps.offline?.cancel()) return ok(null); // a store-and-forward read the core drives itself
  return deviceCall(async () => {
    const current = deps.terminal.sale;
    if (current) current.cancelled = true;
    const terminalId = current?.terminalId ?? deps.terminal.status.terminalId;
    // Naming the sale lets the gateway end it even if the request has not reached the terminal yet.
    if (terminalId) await deps.client.request('POST', `/terminals/${terminalId}/cancel`, current ? { terminalcancel: { transaction_api_id: current.ref } } : undefined);
    return ok(null);
  });
}

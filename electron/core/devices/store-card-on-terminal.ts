/**
 * Reads a card on the counter's terminal and saves it for a customer (POST
 * /v2/routeraccountvaults): the terminal never gives the number out, so the vault holds the
 * gateway's token of the read. The caller (vault-handlers.ts) checks the role; this keeps the
 * terminal busy like a sale does.
 */
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { V2AccountVault } from '../../client/v2-types';
import type { CounterTerminal } from './counter-terminal';
import { deviceCall } from './device-call';
import { DEVICE_ERRORS } from './device-errors';
import { locQuery } from './device-rows';

export interface StoreCardDeps {
  /** The router client: the customer takes their time at the terminal. */
  routerClient: GatewayClient;
  locationId: string | undefined;
  terminal: CounterTerminal;
}

export async function storeCardOnTerminal(deps: StoreCardDeps, contactId: string): Promise<Result<V2AccountVault>> {
  const { terminal } = deps;
  if (terminal.saleRunning) return fail('busy', DEVICE_ERRORS.terminalBusy);
  return deviceCall(async () => {
    const t = await terminal.current();
    if (!t) return fail('no_terminal', DEVICE_ERRORS.noTerminal);
    terminal.saleRunning = true;
    try {
      const r = await deps.routerClient.request<{ accountvault: V2AccountVault }>('POST', '/routeraccountvaults', {
        routeraccountvault: { action: 'store', payment_method: 'cc', ...locQuery(deps.locationId), contact_id: contactId, terminal_id: String(t.id) },
      });
      return ok(r.accountvault);
    } finally {
      terminal.saleRunning = false;
    }
  });
}

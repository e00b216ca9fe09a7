/**
 * The store's payment pages as customers see them: the `paypages:*` handlers (managers set
 * the public address the pay links and invoices use, kept on the gateway's location as its
 * pay_page_url, and read whether a customer's phone can open them), where the links point
 * (for the screens' views), and the store's name from Store settings given to the embedded
 * engine's location, whose name the pay pages and their messages carry.
 * Simplification: with a remote gateway the location's name is the processor's record and
 * is left as it is there.
 */
import type { HandlerMap, PayPagesView } from '../../../shared/ipc/contract';
import { unreachableReason } from '../../../shared/pay-page-address';
import { fail, ok } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import { withGatewayFailure } from '../gateway/guarded-call';

export const PAY_PAGES_MESSAGES = {
  noLocation: 'The pay page address needs the gateway location; ask a manager to set RINGUP_LOCATION_ID.',
} as const;

interface V2Location {
  name?: string;
  pay_page_url?: string | null;
}

const locationPath = (locationId: string) => `/locations/${encodeURIComponent(locationId)}`;

/** Where the location's pay pages are opened: its public address, else the gateway's own origin. */
export async function payPagesOrigin(client: GatewayClient, locationId: string): Promise<string> {
  const { location } = await client.request<{ location: V2Location }>('GET', locationPath(locationId));
  return location.pay_page_url ? location.pay_page_url.replace(/\/+$/, '') : new URL(client.baseUrl).origin;
}

function viewOf(client: GatewayClient, address: string): PayPagesView {
  const linksAt = address || new URL(client.baseUrl).origin;
  return { address, linksAt, unreachable: unreachableReason(linksAt) };
}

/** The store's name on the engine's location (pay pages, pay link and invoice messages); unchanged names are not written. */
export async function syncStoreName(client: GatewayClient, locationId: string, name: string): Promise<void> {
  const { location } = await client.request<{ location: V2Location }>('GET', locationPath(locationId));
  if (location.name !== name) await client.request('PUT', locationPath(locationId), { location: { name } });
}

/** Managers read and set the address (pay-pages.ts in shared/ipc declares it, and that a change is audited). */
export function createPayPagesHandlers(deps: { client: GatewayClient; locationId: string | undefined }): Pick<HandlerMap, 'paypages:get' | 'paypages:set'> {
  const { client, locationId } = deps;
  return {
    'paypages:get': async () =>
      withGatewayFailure(async () => {
        if (!locationId) return fail('not_configured', PAY_PAGES_MESSAGES.noLocation);
        const { location } = await client.request<{ location: V2Location }>('GET', locationPath(locationId));
        return ok(viewOf(client, location.pay_page_url ?? ''));
      }),
    'paypages:set': async ({ address }) =>
      withGatewayFailure(async () => {
        if (!locationId) return fail('not_configured', PAY_PAGES_MESSAGES.noLocation);
        const { location } = await client.request<{ location: V2Location }>('PUT', locationPath(locationId), { location: { pay_page_url: address } });
        return ok(viewOf(client, location.pay_page_url ?? ''));
      }),
  };
}

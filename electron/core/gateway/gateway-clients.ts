/**
 * Every gateway client the core uses, made in one place from one description of the gateway
 * (base URL, credentials, the signed-in role's credentials, this run's timeout), so whose
 * credentials a client sends, how long it waits and how it talks are chosen here and nowhere
 * else. What a client is for decides the rest:
 *
 * - `counter`   a window's requests: the signed-in cashier's or installer's engine user when
 *               there is one (role-credentials.ts), so the gateway itself refuses what that
 *               role may not do; this run's timeout.
 * - `router`    router requests (a sale, a card read, device terms, initialize on the
 *               terminal): as `counter`, but open while the customer uses the terminal —
 *               longer than any terminal's overall_timeout (300 s).
 * - `core`      what the register does on its own behalf (voiding a charge it did not agree
 *               to or a partial approval, a cart's Level 3, reading the outbox): always the
 *               gateway's admin user, never a window's role user.
 * - `forwarder` the offline queue's drain: the admin user whoever is signed in, over node:http
 *               with a keep-alive agent — a drain of thousands of sales is paced by the client's
 *               cost per request (bench:queue).
 * - `probe`     one request with the credentials given, nobody's role (a role user still
 *               known, making one; role-credentials.ts).
 * - `connection-test` a manager's "Test connection" of a gateway not in use yet: a short
 *               timeout, so a wrong address answers in seconds.
 *
 * Every client reads the one credentials object it is given per request: emptying its API key
 * signs every client of the run out at once (app-core.ts, endRunSignIn).
 */
import { GatewayClient, type GatewayAuth, type GatewayClientOptions } from '../../client/gateway-client';

export type GatewayClientUse = 'counter' | 'router' | 'core' | 'forwarder' | 'probe' | 'connection-test';

/** The gateway the clients talk to. */
export interface GatewayDescription {
  baseUrl: string;
  auth: GatewayAuth;
  /** The signed-in window's role credentials, when it has any (only `counter` and `router` send them). */
  authFor?: () => GatewayAuth | undefined;
  /** This run's per-request timeout, ms (RINGUP_GATEWAY_TIMEOUT_MS in the node host); absent: the client's 10 s. */
  timeoutMs?: number;
  /** The one certificate to trust (the store's shared gateway behind the store server's TLS, issue 24). */
  pinnedCertPem?: string;
}

/** Router requests stay open while the customer uses the terminal (overall_timeout ≤ 300 s). */
export const ROUTER_TIMEOUT_MS = 320_000;
/** A connection test answers within this, ms. */
export const CONNECTION_TEST_TIMEOUT_MS = 5_000;

interface UseRules {
  /** Sends the signed-in window's role credentials when there are any. */
  asWindowRole: boolean;
  /** A timeout of its own, whatever this run's is. */
  timeoutMs?: number;
  transport?: GatewayClientOptions['transport'];
}

const USES: Record<GatewayClientUse, UseRules> = {
  counter: { asWindowRole: true },
  router: { asWindowRole: true, timeoutMs: ROUTER_TIMEOUT_MS },
  core: { asWindowRole: false },
  forwarder: { asWindowRole: false, transport: 'node-http' },
  probe: { asWindowRole: false },
  'connection-test': { asWindowRole: false, timeoutMs: CONNECTION_TEST_TIMEOUT_MS },
};

/** A client of `gateway` for `use`. */
export function gatewayClient(use: GatewayClientUse, gateway: GatewayDescription): GatewayClient {
  const rules = USES[use];
  const timeoutMs = rules.timeoutMs ?? gateway.timeoutMs;
  return new GatewayClient({
    baseUrl: gateway.baseUrl,
    auth: gateway.auth,
    ...(rules.asWindowRole && gateway.authFor ? { authFor: gateway.authFor } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(rules.transport ? { transport: rules.transport } : {}),
    ...(gateway.pinnedCertPem ? { pinnedCertPem: gateway.pinnedCertPem } : {}),
  });
}

/**
 * The one factory of the core's gateway clients (gateway-clients.ts): what a client is for
 * chooses whose credentials it sends, how long it waits and how it talks. A real HTTP server on
 * 127.0.0.1 port 0 records what each client sent and answers slowly where the test asks it to.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../electron/client/gateway-client';
import { gatewayClient, ROUTER_TIMEOUT_MS, type GatewayClientUse } from '../../electron/core/gateway/gateway-clients';

const admin = { developerId: 'dev', userId: 'admin-user', userApiKey: 'admin-key' };
const cashier = { developerId: 'dev', userId: 'cashier-user', userApiKey: 'cashier-key' };
/** Longer than the run's timeout below, far shorter than any use's own. */
const SLOW_MS = 600;
const RUN_TIMEOUT_MS = 150;

let server: Server;
let baseUrl: string;
const sockets = new Set<Socket>();
const seen: Array<{ userId: unknown; userAgent: unknown }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ userId: req.headers['user-id'], userAgent: req.headers['user-agent'] });
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    if (req.url?.startsWith('/v2/slow')) setTimeout(answer, SLOW_MS);
    else answer();
  });
  server.on('connection', (c: Socket) => {
    sockets.add(c);
    c.on('close', () => sockets.delete(c));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

const USES: GatewayClientUse[] = ['counter', 'router', 'core', 'forwarder', 'probe', 'connection-test'];

describe('gateway clients, one factory', () => {
  it("a window's clients send the signed-in role's credentials, the core's own always the admin's; the forwarder goes over node:http", async () => {
    let role: typeof cashier | undefined = cashier;
    const gateway = { baseUrl, auth: admin, authFor: () => role };
    const sent: Record<string, unknown> = {};
    for (const use of USES) {
      seen.length = 0;
      await gatewayClient(use, gateway).request('GET', '/who');
      sent[use] = seen[0];
    }
    expect(sent).toEqual({
      counter: { userId: 'cashier-user', userAgent: 'node' },
      router: { userId: 'cashier-user', userAgent: 'node' },
      core: { userId: 'admin-user', userAgent: 'node' },
      // node:http sends no user-agent; fetch names itself "node" (node-http-transport.test.ts).
      forwarder: { userId: 'admin-user', userAgent: undefined },
      probe: { userId: 'admin-user', userAgent: 'node' },
      'connection-test': { userId: 'admin-user', userAgent: 'node' },
    });
    // Nobody signed in with a role of their own: a window's client sends the admin's.
    role = undefined;
    seen.length = 0;
    await gatewayClient('counter', gateway).request('GET', '/who');
    expect(seen[0]!.userId).toBe('admin-user');
  });

  it("the run's timeout holds for every client but the router's and the connection test, which keep their own", async () => {
    const gateway = { baseUrl, auth: admin, timeoutMs: RUN_TIMEOUT_MS };
    const outcome: Record<string, string> = {};
    for (const use of USES) {
      // The server's slow answer and the client's timer run on the same event loop: the shorter always fires first.
      outcome[use] = await gatewayClient(use, gateway)
        .request('GET', '/slow')
        .then(
          () => 'answered',
          (e: unknown) => (e instanceof GatewayError ? `${e.status} ${e.errors.general?.[0] ?? ''}` : String(e)),
        );
    }
    expect(outcome).toEqual({ counter: '0 timeout', router: 'answered', core: '0 timeout', forwarder: '0 timeout', probe: '0 timeout', 'connection-test': 'answered' });
    // Router requests stay open while the customer uses the terminal: longer than its overall_timeout (at most 300 s).
    expect(ROUTER_TIMEOUT_MS).toBeGreaterThan(300_000);
  });
});

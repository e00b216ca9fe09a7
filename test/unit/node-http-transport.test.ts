/**
 * GatewayClient over its node:http transport (the offline forwarder's, node-http-transport.ts)
 * answers exactly as over fetch: the parsed body of a 2xx, the gateway's error envelope with
 * its status, and for no answer the same three reasons — unreachable (refused: the request
 * never left), timeout, lost (the connection broke after the request may have been sent).
 * Real HTTP servers and sockets on 127.0.0.1 port 0.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient, GatewayError } from '../../electron/client/gateway-client';
import { rejectionOf } from '../helpers/rejection';

const servers: Array<Server | ReturnType<typeof createTcpServer>> = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  for (const s of servers.splice(0)) await new Promise<void>((r) => s.close(() => r()));
});

const auth = { developerId: 'd', userId: 'u', userApiKey: 'k' };
const clients = (port: number, timeoutMs = 2_000) =>
  (['fetch', 'node-http'] as const).map((transport) => ({ transport, client: new GatewayClient({ baseUrl: `http://127.0.0.1:${port}/v2`, auth, timeoutMs, transport }) }));

async function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  servers.push(server);
  server.on('connection', (c: Socket) => {
    sockets.add(c);
    c.on('close', () => sockets.delete(c));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as AddressInfo).port;
}

const failure = (p: Promise<unknown>) => rejectionOf(p, GatewayError);

describe('GatewayClient over node:http answers as over fetch', () => {
  it('a 201 is its parsed body; a 422 is the gateway’s envelope; the headers and JSON body arrive', async () => {
    const seen: Array<{ headers: Record<string, unknown>; body: string }> = [];
    const port = await listen(
      createHttpServer((req, res) => {
        let body = '';
        req.on('data', (d: Buffer) => (body += d.toString()));
        req.on('end', () => {
          seen.push({ headers: req.headers, body });
          const amount = (JSON.parse(body) as { transaction: { transaction_amount: string } }).transaction.transaction_amount;
          if (amount === '4.22') {
            res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: { transaction_amount: ['Not today.'] } }));
          } else res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ transaction: { id: 't1', status_id: 101, transaction_amount: amount } }));
        });
      }),
    );
    for (const { transport, client } of clients(port)) {
      const t = await client.createTransaction({ action: 'sale', payment_method: 'cc', transaction_amount: '1.00' });
      expect(t, transport).toMatchObject({ id: 't1', status_id: 101 });
      const e = await failure(client.createTransaction({ action: 'sale', payment_method: 'cc', transaction_amount: '4.22' }));
      expect([e.status, e.errors], transport).toEqual([422, { transaction_amount: ['Not today.'] }]);
    }
    const sent = (i: number) => ({ ...Object.fromEntries(['developer-id', 'user-id', 'user-api-key', 'content-type', 'accept'].map((h) => [h, seen[i]!.headers[h]])), body: JSON.parse(seen[i]!.body) as unknown });
    expect(sent(1)).toMatchObject({ 'developer-id': 'd', 'user-id': 'u', 'user-api-key': 'k', 'content-type': 'application/json', accept: 'application/json' });
    expect(sent(3)).toEqual(sent(1));
    // The node:http transport is really the one in use: fetch names itself (user-agent "node"), node:http sends none.
    expect([seen[1]!.headers['user-agent'], seen[3]!.headers['user-agent']]).toEqual(['node', undefined]);
  });

  it('refused: unreachable; no answer in time: timeout; the connection cut after the request: lost', async () => {
    const closed = await listen(createTcpServer());
    await new Promise<void>((r) => servers.pop()!.close(() => r())); // a port nobody listens on now
    const silent = await listen(createTcpServer(() => undefined)); // accepts, never answers
    const cutter = await listen(createTcpServer((s) => s.once('data', () => s.destroy()))); // reads the request, hangs up
    for (const [port, why] of [
      [closed, 'unreachable'],
      [silent, 'timeout'],
      [cutter, 'lost'],
    ] as const) {
      for (const { transport, client } of clients(port, 300)) {
        const e = await failure(client.createTransaction({ action: 'sale', payment_method: 'cc', transaction_amount: '1.00' }));
        expect([transport, e.status, e.errors.general?.[0]]).toEqual([transport, 0, why]);
      }
    }
  });
});

/**
 * A small v2 gateway as a real HTTP server on 127.0.0.1 port 0, for tests of how a client
 * copes with a gateway that behaves differently from the embedded engine (a remote
 * gateway the app may be pointed at). It takes POST /v2/transactions (a sale) and GET
 * /v2/transactions?transaction_api_id=… and keeps every sale it took. Each POST is decided
 * by `onSale`, which may answer, refuse, hold the answer back or lose it. It records the
 * transaction_api_id of every POST in the order they arrived. For tests of a whole counter
 * against it, it also answers GET /v2/transactions/{id}, voids (PUT with action void) and takes
 * refunds (POST with action refund, kept in `refunds`, never by transaction_api_id); a sale it
 * keeps carries the card's first six and last four as the request had them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { V2Transaction } from '../../electron/client/v2-types';

export interface StubSale {
  apiId: string;
  body: Record<string, unknown>;
  /** This transaction_api_id was taken before (a repeat). */
  repeat: boolean;
}

/** What the stub does with one POST. */
export type StubAnswer =
  | { kind: 'take'; status?: number; change?: Record<string, unknown> } // keeps the sale (status_id 101 by default, 301 declined) and answers 201, with `change` laid over the answer only
  | { kind: 'take-and-lose' } // keeps the sale, then cuts the connection: the client never hears
  | { kind: 'error'; http: number; errors: Record<string, string[]> } // answers an error envelope, keeps nothing
  | { kind: 'original' }; // answers 201 with the sale kept under this transaction_api_id

export interface StubGateway {
  readonly baseUrl: string;
  /** transaction_api_id of every POST, in arrival order. */
  readonly arrivals: string[];
  /** Sales kept, by transaction_api_id. */
  readonly kept: Map<string, V2Transaction>;
  /** Refunds taken (POST with action refund), in arrival order. */
  readonly refunds: V2Transaction[];
  /** Ids of the transactions voided, in arrival order. */
  readonly voided: string[];
  onSale: (sale: StubSale) => StubAnswer | Promise<StubAnswer>;
  /** GET lookups fail with this HTTP status while set. */
  lookupFailure: number | null;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = '';
    req.on('data', (d: Buffer) => (s += d.toString()));
    req.on('end', () => resolve(s));
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startStubGateway(): Promise<StubGateway> {
  const kept = new Map<string, V2Transaction>();
  const arrivals: string[] = [];
  const refunds: V2Transaction[] = [];
  const voided: string[] = [];
  const byId = new Map<string, V2Transaction>();
  let seq = 0;
  const stub: Omit<StubGateway, 'baseUrl' | 'close'> = {
    arrivals,
    kept,
    refunds,
    voided,
    onSale: () => ({ kind: 'take' }),
    lookupFailure: null,
  };
  const keep = (apiId: string, body: Record<string, unknown>, status: number): V2Transaction => {
    const t = {
      id: `stub-${++seq}`,
      transaction_api_id: apiId,
      transaction_amount: String(body.transaction_amount),
      auth_amount: status === 101 ? String(body.transaction_amount) : '0.00',
      status_id: status,
      type_id: 20,
      reason_code_id: status === 101 ? 1000 : 1615,
      last_four: typeof body.account_number === 'string' ? body.account_number.slice(-4) : '1111',
      ...(typeof body.account_number === 'string' ? { first_six: body.account_number.slice(0, 6) } : {}),
      payment_method: body.payment_method ?? 'cc',
      created_ts: Math.floor(Date.now() / 1000),
    } as unknown as V2Transaction;
    kept.set(apiId, t);
    byId.set(t.id, t);
    return t;
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/v2/transactions') {
        if (stub.lookupFailure) return send(res, stub.lookupFailure, { errors: { general: ['Try again later.'] } });
        const id = url.searchParams.get('transaction_api_id');
        const t = id ? kept.get(id) : undefined;
        return send(res, 200, { transactions: t ? [t] : [], meta: { pagination: { totalCount: t ? 1 : 0, pageCount: 1, currentPage: 1, perPage: 10 } } });
      }
      const one = /^\/v2\/transactions\/([^/]+)$/.exec(url.pathname);
      if (one && req.method === 'GET') {
        const t = byId.get(decodeURIComponent(one[1]!));
        return t ? send(res, 200, { transaction: t }) : send(res, 404, { errors: { general: ['Object not found.'] } });
      }
      if (one && req.method === 'PUT') {
        const t = byId.get(decodeURIComponent(one[1]!));
        if (!t) return send(res, 404, { errors: { general: ['Object not found.'] } });
        voided.push(t.id);
        Object.assign(t, { status_id: 201 });
        return send(res, 200, { transaction: t });
      }
      if (req.method === 'POST' && url.pathname === '/v2/transactions') {
        const body = (JSON.parse(await readBody(req)) as { transaction: Record<string, unknown> }).transaction;
        if (body.action === 'refund') {
          const original = byId.get(String(body.previous_transaction_id));
          const r = { ...original, id: `stub-${++seq}`, transaction_api_id: null, type_id: 30, status_id: 101, transaction_amount: String(body.transaction_amount), auth_amount: String(body.transaction_amount), previous_transaction_id: body.previous_transaction_id } as unknown as V2Transaction;
          refunds.push(r);
          byId.set(r.id, r);
          return send(res, 201, { transaction: r });
        }
        const apiId = String(body.transaction_api_id ?? '');
        arrivals.push(apiId);
        const answer = await stub.onSale({ apiId, body, repeat: kept.has(apiId) });
        switch (answer.kind) {
          case 'take':
            return send(res, 201, { transaction: { ...keep(apiId, body, answer.status ?? 101), ...answer.change } });
          case 'take-and-lose':
            keep(apiId, body, 101);
            req.socket.destroy();
            return;
          case 'original': {
            const t = kept.get(apiId);
            return t ? send(res, 201, { transaction: t }) : send(res, 422, { errors: { transaction_api_id: ['No such sale.'] } });
          }
          case 'error':
            return send(res, answer.http, { errors: answer.errors });
        }
      }
      send(res, 404, { errors: { general: ['Object not found.'] } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(stub, {
    baseUrl: `http://127.0.0.1:${port}/v2`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as StubGateway;
}

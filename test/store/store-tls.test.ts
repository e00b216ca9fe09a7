/**
 * store-tls.ts over real HTTPS servers on port 0: the certificate read before trust, a pinned
 * link that reaches the server by another name than the certificate's, a link pinned to another
 * certificate refused, failover to the next address when the first is away, a refusal's
 * sentence read from the `{"errors": …}` envelope, and a close that cuts a held request without
 * trying it at the next address.
 */
import { createServer, type Server } from 'node:https';
import { afterAll, beforeAll, expect, test } from 'vitest';
import selfsigned from 'selfsigned';
import { readCertificate, StoreAwayError, StoreLink, StoreRefusal } from '../../electron/core/store/store-tls';
import { certificateFingerprint } from '../../electron/common/store-code';

interface Pems {
  private: string;
  cert: string;
}
const make = (cn: string) => (selfsigned as unknown as { generate(a: unknown, o: unknown): Promise<Pems> }).generate([{ name: 'commonName', value: cn }], { keySize: 2048, days: 30 });

let mine: Pems;
let other: Pems;
let server: Server;
let port = 0;
/** The Host header of each request the server is holding. */
const held: string[] = [];

beforeAll(async () => {
  [mine, other] = await Promise.all([make('ringup-store'), make('someone-else')]);
  server = createServer({ key: mine.private, cert: mine.cert }, (req, res) => {
    res.setHeader('content-type', 'application/json');
    // A long poll that never answers (the close must cut it).
    if (req.url === '/hold') {
      held.push(req.headers.host ?? '');
      return;
    }
    if (req.url === '/refuse') {
      res.statusCode = 409;
      return res.end(JSON.stringify({ errors: { code: ['That code was used already.'] } }));
    }
    res.end(JSON.stringify({ path: req.url, auth: req.headers.authorization ?? null, waiting: req.headers['x-ringup-waiting'] ?? null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

test('the certificate a server shows is read before any trust, with its hello', async () => {
  const shown = await readCertificate(`https://127.0.0.1:${port}`, '/v1/hello');
  expect(shown.fingerprint).toBe(certificateFingerprint(mine.cert));
  expect(shown.hello).toEqual({ path: '/v1/hello', auth: null, waiting: null });
});

test('a pinned link reaches its server by any name, with its token and outbox count; another certificate is refused', async () => {
  const link = new StoreLink({ addresses: [`https://localhost:${port}`], certPem: mine.cert, token: () => 'tok', waiting: () => 3 });
  const a = await link.send<{ auth: string; waiting: string }>('GET', '/v1/registers');
  expect(a.value).toMatchObject({ auth: 'Bearer tok', waiting: '3' });
  link.close();
  const stranger = new StoreLink({ addresses: [`https://127.0.0.1:${port}`], certPem: other.cert, token: () => 'tok' });
  await expect(stranger.send('GET', '/v1/registers')).rejects.toBeInstanceOf(StoreAwayError);
  stranger.close();
});

test('an address that is away is passed over for the next; a refusal is the answer, with its sentence', async () => {
  // A port nothing listens on: the server's own port, once closed, would race; a fresh listener closed at once is free.
  const dead = await new Promise<number>((r) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => r(p));
    });
  });
  const link = new StoreLink({ addresses: [`https://127.0.0.1:${dead}`, `https://127.0.0.1:${port}`], certPem: mine.cert, token: () => null });
  const a = await link.send('GET', '/v1/hello');
  expect(a.address).toBe(`https://127.0.0.1:${port}`);
  expect(link.address).toBe(`https://127.0.0.1:${port}`);
  const refused = await link.send('POST', '/refuse', {}).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(StoreRefusal);
  expect((refused as StoreRefusal).status).toBe(409);
  expect((refused as StoreRefusal).message).toBe('That code was used already.');
  link.close();
});

test('closing the link cuts a held request at once, and it is not tried again at the next address', async () => {
  // Both addresses reach the same server (by two names): a retry after the close would be a second held request.
  const link = new StoreLink({ addresses: [`https://127.0.0.1:${port}`, `https://localhost:${port}`], certPem: mine.cert, token: () => null });
  const before = held.length;
  const poll = link.send('GET', '/hold', undefined, 60_000).catch((e: unknown) => e);
  await expect.poll(() => held.length).toBe(before + 1);
  const t0 = Date.now();
  link.close();
  expect(await poll).toBeInstanceOf(StoreAwayError);
  expect(Date.now() - t0).toBeLessThan(2_000);
  // The server's side of the cut request closes; no second one came.
  expect(held.length).toBe(before + 1);
});

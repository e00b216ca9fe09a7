/**
 * The loopback redirect listener of the app's OAuth sign-in (RFC 8252 §7.3): a tiny HTTP
 * server on 127.0.0.1, on whatever port is free, that waits for the one redirect the
 * gateway's consent page sends back to it. It answers only requests addressed to itself
 * (the Host header must be 127.0.0.1:port, a DNS-rebinding guard), only on its callback
 * path, and only with the `state` this sign-in made (compared in constant time); a wrong
 * request gets an error page and the listener keeps waiting for the right one. The first
 * right redirect gets a small "you can close this tab" page and the listener closes
 * itself; so does a timeout.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CALLBACK_PATH = '/oauth/callback';
/** How long the browser has for login and consent. */
export const LOOPBACK_TIMEOUT_MS = 5 * 60_000;

export interface LoopbackRedirect {
  code: string;
  /** The gateway user the code is for (the engine sends user_id with the code). */
  userId: string | null;
}

/** Why no code came: the person refused on the consent page, the gateway sent an error, or the time ran out. */
export class LoopbackError extends Error {
  constructor(
    readonly reason: 'denied' | 'error' | 'timeout' | 'closed',
    message: string,
  ) {
    super(message);
    this.name = 'LoopbackError';
  }
}

export interface LoopbackListener {
  /** `http://127.0.0.1:PORT/oauth/callback`: the redirect_uri of this sign-in. */
  redirectUri: string;
  /** Resolves with the code, or rejects with a LoopbackError; the listener is closed either way. */
  result: Promise<LoopbackRedirect>;
  /** Whether the server still listens. */
  readonly listening: boolean;
  close(): void;
}

export const LOOPBACK_PAGES = {
  done: 'You are signed in. You can close this tab and go back to Ringup.',
  denied: 'Access was not allowed. You can close this tab; Ringup did not sign in.',
  error: 'The gateway did not sign Ringup in. You can close this tab and try again in Ringup.',
  wrongState: 'This sign-in answer is not the one Ringup is waiting for. Start the sign-in again from Ringup.',
} as const;

const STYLE = 'body{font:1.1rem/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh}main{max-width:32rem;padding:2rem}h1{font-size:1.6rem}';

function page(res: ServerResponse, status: number, text: string): void {
  const nonce = randomBytes(12).toString('base64');
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ringup sign-in</title>
<meta name="color-scheme" content="light dark"><style nonce="${nonce}">${STYLE}</style></head><body><main><h1>Ringup</h1><p>${text}</p></main></body></html>`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; frame-ancestors 'none'; base-uri 'none'`,
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  res.end(body);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function startLoopbackListener(opts: { state: string; timeoutMs?: number }): Promise<LoopbackListener> {
  let settle: { resolve: (r: LoopbackRedirect) => void; reject: (e: LoopbackError) => void } | undefined;
  const result = new Promise<LoopbackRedirect>((resolve, reject) => (settle = { resolve, reject }));
  // A caller that never awaits (it closed the listener itself) must not see an unhandled rejection.
  result.catch(() => {});
  let port = 0;
  let open = true;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.host !== `127.0.0.1:${port}`) return page(res, 400, 'Wrong address.');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) return page(res, 404, 'Not found.');
    const state = url.searchParams.get('state') ?? '';
    if (!sameSecret(state, opts.state)) return page(res, 400, LOOPBACK_PAGES.wrongState);
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    if (error || !code) {
      page(res, 400, error === 'access_denied' ? LOOPBACK_PAGES.denied : LOOPBACK_PAGES.error);
      const reason = error === 'access_denied' ? 'denied' : 'error';
      finish(() => settle?.reject(new LoopbackError(reason, reason === 'denied' ? 'Access was not allowed on the gateway’s page.' : `The gateway answered: ${error ?? 'no code'}.`)));
      return;
    }
    page(res, 200, LOOPBACK_PAGES.done);
    finish(() => settle?.resolve({ code, userId: url.searchParams.get('user_id') }));
  });

  const timer = setTimeout(() => finish(() => settle?.reject(new LoopbackError('timeout', 'The sign-in took too long; start it again.'))), opts.timeoutMs ?? LOOPBACK_TIMEOUT_MS);
  timer.unref();

  function finish(then: () => void): void {
    if (!open) return;
    open = false;
    clearTimeout(timer);
    // The answer page is already written; idle keep-alive sockets must not hold the port.
    server.close();
    server.closeIdleConnections();
    then();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    result,
    get listening() {
      return server.listening;
    },
    close: () => finish(() => settle?.reject(new LoopbackError('closed', 'The sign-in was cancelled.'))),
  };
}

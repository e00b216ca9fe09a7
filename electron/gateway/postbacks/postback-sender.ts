/**
 * One postback attempt on the wire: an HTTP POST of an application/x-www-form-urlencoded
 * body to the config's url, with Basic authorization when the config has a user name and
 * password. Only a 2xx answer acknowledges; anything else, a connection error or no
 * complete answer within the time-out (10 s, as the event-delivery products integrators
 * know) is a failed attempt. Redirects are not followed. Keep-alive agents reuse
 * connections to the same receiver.
 */
import http from 'node:http';
import https from 'node:https';

/** The receiver time-out: an answer must be complete within 10 seconds. */
export const POSTBACK_TIMEOUT_MS = 10_000;

export const SENDER_MSG = {
  TIMEOUT: 'The receiver did not answer within {seconds} seconds.',
  NOT_2XX: 'The receiver answered HTTP {status}; only a 2xx acknowledges a postback.',
  BAD_URL: 'The postback url is not an http or https address.',
} as const;

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 128 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 128 }),
};

export function postForm(url: string, form: Record<string, string>, auth: { username: string | null; password: string | null }, timeoutMs: number): Promise<AttemptResult> {
  const started = Date.now();
  const done = (ok: boolean, statusCode: number | null, error: string | null): AttemptResult => ({ ok, statusCode, error, durationMs: Date.now() - started });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done(false, null, SENDER_MSG.BAD_URL));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.resolve(done(false, null, SENDER_MSG.BAD_URL));
  const body = new URLSearchParams(form).toString();
  const headers: Record<string, string | number> = {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': Buffer.byteLength(body),
    'user-agent': 'Ringup-Gateway-Postback/1',
  };
  if (auth.username && auth.password) headers.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
  const mod = target.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = mod.request(target, { method: 'POST', headers, agent: target.protocol === 'https:' ? agents.https : agents.http }, (res) => {
      res.resume(); // the answer's body is not used; read it so the connection is reused
      res.on('end', () => {
        const code = res.statusCode ?? 0;
        finish(code >= 200 && code < 300 ? done(true, code, null) : done(false, code, SENDER_MSG.NOT_2XX.replace('{status}', String(code))));
      });
      res.on('error', (e) => finish(done(false, res.statusCode ?? null, e.message)));
    });
    const timer = setTimeout(() => {
      finish(done(false, null, SENDER_MSG.TIMEOUT.replace('{seconds}', String(Math.round(timeoutMs / 100) / 10))));
      req.destroy();
    }, timeoutMs);
    req.on('error', (e) => finish(done(false, null, e.message || (e as NodeJS.ErrnoException).code || 'connection failed')));
    req.end(body);
  });
}

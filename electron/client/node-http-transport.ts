/**
 * One HTTP exchange over node:http / node:https with a keep-alive agent, answering the
 * status and the body text — the same thing GatewayClient reads from fetch. It costs the
 * client far less per request than fetch (bench:queue, 10,000 sales at 16 in flight on this
 * machine: about 1,550/s over fetch, 3,150-3,650/s over node:http), which matters when the
 * offline queue drains thousands of sales; the rest of the app keeps fetch.
 *
 * Failures are thrown so that `networkFailure` (gateway-client.ts) reads them as it reads
 * fetch's: the socket's error code (ECONNREFUSED … → unreachable), a TimeoutError past
 * `timeoutMs` (→ timeout), anything else after the request may have left (→ lost).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { certificateFingerprint } from '../common/store-code';

export interface NodeHttpAnswer {
  status: number;
  text: string;
}

export class NodeHttpTransport {
  private readonly http = new HttpAgent({ keepAlive: true });
  private readonly https: HttpsAgent;

  /**
   * `pinnedCertPem`: trust that one certificate and no other (a store server's own, issue 24:
   * the store's shared gateway is served behind its TLS), whatever name or address it is reached by.
   */
  constructor(pinnedCertPem?: string) {
    if (!pinnedCertPem) {
      this.https = new HttpsAgent({ keepAlive: true });
      return;
    }
    const fingerprint = certificateFingerprint(pinnedCertPem);
    this.https = new HttpsAgent({
      keepAlive: true,
      ca: pinnedCertPem,
      checkServerIdentity: (_host, cert) => (cert.fingerprint256 === fingerprint ? undefined : new Error('the server showed another certificate than the pinned one')),
    });
  }

  send(url: URL, opts: { method: string; headers: Record<string, string>; body: string | null; timeoutMs: number }): Promise<NodeHttpAnswer> {
    const secure = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const req = (secure ? httpsRequest : httpRequest)(url, { method: opts.method, headers: opts.headers, agent: secure ? this.https : this.http }, (res: IncomingMessage) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text });
        });
        res.on('error', fail);
      });
      function fail(err: Error) {
        clearTimeout(timer);
        reject(err);
      }
      const timer = setTimeout(() => {
        const err = new Error(`no answer within ${opts.timeoutMs} ms`);
        err.name = 'TimeoutError';
        req.destroy(err);
      }, opts.timeoutMs);
      req.on('error', fail);
      req.end(opts.body ?? undefined);
    });
  }
}

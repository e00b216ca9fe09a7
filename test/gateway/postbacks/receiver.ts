/**
 * A real local HTTP receiver for postback tests: port 0, records every POST (headers and
 * the url-encoded form), answers 500 for the first `failures` requests and 200 after,
 * or never answers while `hang` is set.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  form: Record<string, string>;
  at: number;
}

export class Receiver {
  readonly received: Received[] = [];
  /** The postbacks answered with 200 (acknowledged). */
  readonly accepted: Received[] = [];
  failures = 0;
  hang = false;
  private hung: ServerResponse[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(failures = 0): Promise<Receiver> {
    const holder: { self?: Receiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r = holder.self as Receiver;
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        const rec = { path: req.url ?? '', headers: req.headers, form, at: Date.now() };
        r.received.push(rec);
        if (r.hang) return void r.hung.push(res);
        if (r.failures > 0) {
          r.failures--;
          res.writeHead(500).end('not now');
        } else {
          r.accepted.push(rec);
          res.writeHead(200).end('ok');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    const self = new Receiver(server, `http://127.0.0.1:${port}/hook`);
    self.failures = failures;
    holder.self = self;
    return self;
  }

  /** Parsed `data` of every received postback (optionally of one resource). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON records, asserted field by field
  records(resource?: string): { type: string; attempts: number; data: any }[] {
    return this.received
      .filter((r) => resource === undefined || r.form.resource === resource)
      .map((r) => ({ type: r.form.type as string, attempts: Number(r.form.number_of_attempts), data: JSON.parse(r.form.data as string) }));
  }

  async close(): Promise<void> {
    for (const res of this.hung.splice(0)) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Drives the engine's HTML pages as a browser would, over real HTTP: a cookie jar,
 * no automatic redirects (tests look at every 302), hidden form fields read from the
 * page, forms posted as application/x-www-form-urlencoded. Plus a redirect listener: a
 * real HTTP server on 127.0.0.1:0 that records the query of every request it gets.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Page {
  status: number;
  text: string;
  location: string | null;
  headers: Headers;
}

export class Browser {
  readonly cookies = new Map<string, string>();

  private remember(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = (pair ?? '').indexOf('=');
      if (i <= 0) continue;
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  async get(url: string): Promise<Page> {
    const res = await fetch(url, { redirect: 'manual', headers: this.cookieHeader(), signal: AbortSignal.timeout(15_000) });
    this.remember(res);
    return { status: res.status, text: await res.text(), location: res.headers.get('location'), headers: res.headers };
  }

  async post(url: string, form: Record<string, string>): Promise<Page> {
    const res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(15_000),
    });
    this.remember(res);
    return { status: res.status, text: await res.text(), location: res.headers.get('location'), headers: res.headers };
  }
}

/** The value of a hidden (or any) input by name, HTML entities decoded. */
export function field(html: string, name: string): string {
  const m = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html);
  if (!m) throw new Error(`no input ${name} in page: ${html.slice(0, 500)}`);
  return m[1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The escaped form of a message as it appears in a page. */
export const html = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export class RedirectListener {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly hits: URLSearchParams[],
  ) {}

  static async start(path = '/callback'): Promise<RedirectListener> {
    const hits: URLSearchParams[] = [];
    const server = createServer((req, res) => {
      hits.push(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><head><title>Signed in</title></head><body><main><h1>Back in the application</h1></main></body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    return new RedirectListener(server, `http://127.0.0.1:${port}${path}`, hits);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

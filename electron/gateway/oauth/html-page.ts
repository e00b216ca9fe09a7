/**
 * The engine's server-rendered pages (login, consent, error, hosted charge): plain HTML,
 * no scripts, no external assets, one inline stylesheet allowed by a per-response nonce,
 * and a strict Content-Security-Policy. `form-action` lists 'self' plus the origins a
 * page's form may be redirected to (the consent page's allowed redirect_uri), because
 * Chromium applies form-action to the redirect after a form post too.
 * Colours and sizes follow the app's look (renderer/src/styles.css): 18 px body text,
 * 48 px touch targets, a visible focus ring, light and dark by the system setting.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and double-quoted attributes. */
export const esc = (v: unknown): string => String(v ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

const STYLE = `
:root{--bg:#eef1f5;--surface:#fff;--text:#101828;--muted:#475467;--border:#cfd5de;--accent:#1d4ed8;--accent-strong:#1e40af;
--accent-text:#fff;--ok:#067647;--ok-soft:#dcf3e6;--bad:#b42318;--bad-soft:#fde7e5;--focus:#1d4ed8;color-scheme:light dark}
@media (prefers-color-scheme: dark){:root{--bg:#0b0f17;--surface:#151a24;--text:#f2f4f7;--muted:#a3acba;--border:#353d4e;
--accent:#7aa7ff;--accent-strong:#a5c3ff;--accent-text:#0b1220;--ok:#5ad59a;--ok-soft:#12301f;--bad:#ff8a80;--bad-soft:#3a1512;--focus:#7aa7ff}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:1.125rem/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',Arial,sans-serif}
main{max-width:32rem;margin:3rem auto;padding:2rem;background:var(--surface);border:1px solid var(--border);border-radius:12px}
h1{font-size:1.75rem;margin:0 0 1rem}
p{margin:0 0 1rem}
main>:last-child{margin-bottom:0}
.muted{color:var(--muted)}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{display:block;width:100%;min-height:48px;padding:.5rem .75rem;font:inherit;color:var(--text);background:var(--surface);
border:1px solid var(--muted);border-radius:8px}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:0 1rem}
.row{display:flex;gap:1rem;margin-top:1.5rem;flex-wrap:wrap}
button{min-height:48px;min-width:8rem;padding:.5rem 1.25rem;font:inherit;font-weight:600;border-radius:8px;border:1px solid var(--accent);
background:var(--accent);color:var(--accent-text);cursor:pointer}
button.secondary{background:transparent;color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.alert{padding:.75rem 1rem;border-radius:8px;background:var(--bad-soft);color:var(--text);border-left:4px solid var(--bad);margin:0 0 1rem}
.ok{padding:.75rem 1rem;border-radius:8px;background:var(--ok-soft);border-left:4px solid var(--ok);margin:0 0 1rem}
a.button-link{display:inline-flex;align-items:center;min-height:48px;color:var(--accent);font-weight:600}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0 0 1rem}
fieldset{border:1px solid var(--border);border-radius:8px;margin:1rem 0 0;padding:0 1rem 1rem;min-width:0}
legend{font-weight:700;padding:0 .25rem}
.choice{display:inline-flex;align-items:center;gap:.5rem;min-height:48px;margin:.5rem 1.5rem 0 0;font-weight:600}
.choice input{display:inline-block;width:1.25rem;height:1.25rem;min-height:0;margin:0}
dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
`;

export interface PageOptions {
  title: string;
  /** A refusal's reason (4xx pages): the envelope's message for a client that asks for JSON (default: the title). */
  error?: string;
  /** Inner HTML of <main> (already escaped by the caller). */
  body: string;
  /** Origins a form on this page may post or be redirected to, besides 'self'. */
  formTargets?: string[];
}

/**
 * Whether the caller asked for JSON rather than a page: an `Accept` naming application/json
 * (or +json) and not text/html. Browsers always name text/html; `*\/*` alone gets the page.
 */
export function prefersJson(accept: string | undefined): boolean {
  const a = (accept ?? '').toLowerCase();
  return /application\/([\w.-]+\+)?json/.test(a) && !a.includes('text/html');
}

export function sendPage(reply: FastifyReply, status: number, opts: PageOptions): FastifyReply {
  // Every refusal is the error envelope for an API client (issue 19); a browser gets the page.
  if (status >= 400 && prefersJson(reply.request.headers.accept)) {
    return reply.code(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send({ errors: { general: [opts.error ?? opts.title] } });
  }
  const nonce = randomBytes(16).toString('base64');
  const formAction = ["'self'", ...(opts.formTargets ?? [])].join(' ');
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'none'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${esc(opts.title)} · Ringup gateway</title>
<style nonce="${nonce}">${STYLE}</style></head>
<body><main>${opts.body}</main></body></html>`;
  return reply
    .code(status)
    .header('content-security-policy', csp)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** A page that only says what went wrong (never a 5xx, never a redirect). */
export function sendErrorPage(reply: FastifyReply, status: number, title: string, message: string): FastifyReply {
  return sendPage(reply, status, { title, error: message, body: `<h1>${esc(title)}</h1><p class="alert" role="alert">${esc(message)}</p>` });
}

/** Reads one cookie from the Cookie header (no cookie library for two cookies). */
export function cookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/**
 * Runs the requests of an Insomnia export (format 4) the way Insomnia's collection runner does,
 * for the family-samples test: insomnia-inso is not among the installed packages and packages
 * are not added for a test, so this is a small runner that does only what Insomnia does with
 * such an export, and refuses anything it does not know (so a sample it cannot run faithfully
 * fails the test instead of being sent half-rendered).
 *
 * What it follows from Insomnia:
 * - order: the workspace's tree, each level sorted by metaSortKey (the sidebar order);
 * - environment: the base environment's data, then the chosen sub-environment's over it, then
 *   each enclosing folder's environment, outermost first (the innermost wins);
 * - templates (Insomnia's nunjucks subset these exports use): `{{ name }}`, `{{ _.name }}`
 *   (environment values are themselves rendered, as Insomnia renders its context), and the
 *   `now` tag `{% now 'millis' | 'unix' | 'iso-8601' %}`; any other tag or filter is an error;
 * - the request: method, rendered URL (with its parameters; encoded as settingEncodeUrl asks),
 *   enabled headers (plus Insomnia's own User-Agent when the request sets none), rendered body
 *   text unless settingDisableRenderRequestBody.
 * Simplifications (named): no cookie jar (the engine sets no cookies), no authentication types
 * other than none, no plugins and no response-referencing tags (`{% response %}`).
 */

export interface InsomniaResource {
  _id: string;
  _type: string;
  parentId: string | null;
  name?: string;
  metaSortKey?: number;
  // request
  url?: string;
  method?: string;
  body?: { mimeType?: string; text?: string };
  parameters?: Array<{ name: string; value: string; disabled?: boolean }>;
  headers?: Array<{ name: string; value: string; disabled?: boolean }>;
  authentication?: Record<string, unknown>;
  settingEncodeUrl?: boolean;
  settingDisableRenderRequestBody?: boolean;
  // environment, request_group
  data?: Record<string, unknown>;
  environment?: Record<string, unknown>;
}

export interface InsomniaExport {
  _type: 'export';
  __export_format: number;
  __export_source?: string;
  resources: InsomniaResource[];
}

/** One request as it was sent and answered. */
export interface InsomniaAnswer {
  name: string;
  method: string;
  url: string;
  /** The request body as sent. */
  sent: string;
  status: number;
  text: string;
  /** The answer parsed as JSON (null when it is not JSON). */
  body: unknown;
}

export interface RunOptions {
  /** The sub-environment to use (Insomnia's environment picker), by name. */
  environment: string;
  /**
   * What the person running the export types over a request's bracketed placeholders before
   * sending it ("[Transaction ID]" → an id answered earlier): plain text substitutions on that
   * request's URL, headers and body, given the answers so far.
   */
  fill?: (request: InsomniaResource, earlier: readonly InsomniaAnswer[]) => Record<string, string>;
}

const MAX_DEPTH = 8;

type Context = Record<string, unknown>;

function render(text: string, ctx: Context, depth = 0): string {
  if (depth > MAX_DEPTH) throw new Error(`Insomnia template nests deeper than ${MAX_DEPTH}: ${text}`);
  const out = text
    .replace(/\{\{\s*(_\.)?([A-Za-z_$][\w$]*)\s*\}\}/g, (_m, _scope: string | undefined, name: string) => {
      if (!Object.prototype.hasOwnProperty.call(ctx, name) || ctx[name] === null || ctx[name] === undefined) {
        throw new Error(`Insomnia would not render "${name}": it is not in the environment`);
      }
      const value = ctx[name];
      return typeof value === 'string' ? render(value, ctx, depth + 1) : typeof value === 'object' ? JSON.stringify(value) : String(value);
    })
    .replace(/\{%\s*now\s+'([^']*)'\s*(?:,\s*'([^']*)'\s*)?%\}/g, (_m, kind: string) => nowTag(kind));
  const left = /\{\{|\{%/.exec(out);
  if (left) throw new Error(`Insomnia template not supported by this runner: ${out.slice(left.index, left.index + 60)}`);
  return out;
}

/** Insomnia's `now` tag (its plugin "now": millis | unix | iso-8601; custom needs moment formats). */
function nowTag(kind: string): string {
  const now = Date.now();
  switch (kind.toLowerCase()) {
    case 'millis':
    case 'ms':
      return String(now);
    case 'unix':
    case 'seconds':
    case 's':
      return String(Math.round(now / 1000));
    case 'iso-8601':
      return new Date(now).toISOString();
    default:
      throw new Error(`Insomnia now tag format not supported by this runner: ${kind}`);
  }
}

function bySortKey(a: InsomniaResource, b: InsomniaResource): number {
  return (a.metaSortKey ?? 0) - (b.metaSortKey ?? 0);
}

/** The requests in the order Insomnia's runner takes them (depth first, metaSortKey order). */
export function requestsInOrder(doc: InsomniaExport): InsomniaResource[] {
  const workspace = doc.resources.find((r) => r._type === 'workspace');
  if (!workspace) throw new Error('Insomnia export has no workspace');
  const out: InsomniaResource[] = [];
  const walk = (parentId: string): void => {
    for (const child of doc.resources.filter((r) => r.parentId === parentId && (r._type === 'request' || r._type === 'request_group')).sort(bySortKey)) {
      if (child._type === 'request') out.push(child);
      else walk(child._id);
    }
  };
  walk(workspace._id);
  return out;
}

function contextFor(doc: InsomniaExport, request: InsomniaResource, environment: string): Context {
  const byId = new Map(doc.resources.map((r) => [r._id, r]));
  const workspace = doc.resources.find((r) => r._type === 'workspace')!;
  const base = doc.resources.find((r) => r._type === 'environment' && r.parentId === workspace._id);
  if (!base) throw new Error('Insomnia export has no base environment');
  const sub = doc.resources.find((r) => r._type === 'environment' && r.parentId === base._id && r.name === environment);
  if (!sub) throw new Error(`Insomnia export has no sub-environment named ${environment}`);
  const folders: InsomniaResource[] = [];
  for (let p = byId.get(request.parentId ?? ''); p && p._type === 'request_group'; p = byId.get(p.parentId ?? '')) folders.unshift(p);
  const ctx: Context = Object.assign({}, base.data, sub.data, ...folders.map((f) => f.environment ?? {}));
  ctx._ = ctx;
  return ctx;
}

function substitute(text: string, fills: Record<string, string>): string {
  for (const [placeholder, value] of Object.entries(fills)) text = text.split(placeholder).join(value);
  return text;
}

/** Sends every request of the export in order and returns what each was answered. */
export async function runInsomniaExport(exportText: string, opts: RunOptions): Promise<InsomniaAnswer[]> {
  const doc = JSON.parse(exportText) as InsomniaExport;
  if (doc._type !== 'export' || doc.__export_format !== 4) throw new Error('not an Insomnia export in format 4');
  const version = /insomnia\.desktop\.app:v(\S+)/.exec(doc.__export_source ?? '')?.[1] ?? '2021.1.1';
  const answers: InsomniaAnswer[] = [];
  for (const request of requestsInOrder(doc)) {
    if (request.authentication && Object.keys(request.authentication).length > 0) throw new Error(`${request.name}: authentication types are not supported by this runner`);
    const fills = opts.fill?.(request, answers) ?? {};
    const ctx = contextFor(doc, request, opts.environment);
    const url = new URL(render(substitute(request.url ?? '', fills), ctx));
    for (const p of request.parameters ?? []) if (!p.disabled) url.searchParams.append(render(p.name, ctx), render(substitute(p.value, fills), ctx));
    const headers = new Headers();
    for (const h of request.headers ?? []) if (!h.disabled && h.name) headers.append(render(h.name, ctx), render(substitute(h.value, fills), ctx));
    if (!headers.has('user-agent')) headers.set('user-agent', `insomnia/${version}`);
    const rawBody = substitute(request.body?.text ?? '', fills);
    const sent = request.settingDisableRenderRequestBody ? rawBody : render(rawBody, ctx);
    if (request.body?.mimeType && !headers.has('content-type')) headers.set('content-type', request.body.mimeType);
    const method = (request.method ?? 'GET').toUpperCase();
    // settingEncodeUrl: Insomnia percent-encodes what is not already encoded; URL's serialisation does that.
    const href = request.settingEncodeUrl === false ? url.toString() : url.href;
    const res = await fetch(href, { method, headers, body: method === 'GET' || method === 'HEAD' || sent === '' ? undefined : sent, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    answers.push({ name: request.name ?? request._id, method, url: href, sent, status: res.status, text, body });
  }
  return answers;
}

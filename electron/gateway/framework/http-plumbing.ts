/**
 * Everything between the socket and the resource handlers: the Host check, the auth
 * hook, content types, and the mapping of every failure (ours and fastify's own: JSON
 * parse, body limit, media type) into the error envelope. Unknown paths answer 404;
 * a known path with the wrong method answers 405 with an Allow header.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, MSG, fmt, type ErrorMap } from './errors';
import type { Authenticator } from './auth';
import { maskBody, maskQuery, type KeepsDigits } from './card-mask';
import { MAX_JSON_DEPTH, jsonDepth } from './json-depth';
import { parseXmlBody, toXml, wantsXml } from './xml-format';

export const BODY_LIMIT = 1024 * 1024;

interface RoutePattern {
  re: RegExp;
  methods: Set<string>;
}

function send(reply: FastifyReply, status: number, errors: ErrorMap, headers: Record<string, string> = {}): FastifyReply {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.code(status).type('application/json; charset=utf-8').send({ errors });
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host);
}

/**
 * What every parsed body goes through, whatever its format: the nesting limit (422
 * before anything is stored) and the masking of card numbers typed where the route does
 * not declare account data, ids or secrets (card-mask.ts).
 */
export function acceptBody(parsed: unknown, keepsDigits?: KeepsDigits): unknown {
  if (jsonDepth(parsed, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new ApiError(422, { general: [fmt(MSG.TOO_DEEP, { max: MAX_JSON_DEPTH })] });
  return maskBody(parsed, keepsDigits);
}

/**
 * The request target in origin form, whatever form the request line used (RFC 9112 §3.2),
 * given to fastify as `rewriteUrl` so routing, authentication, the Host check and every
 * handler read one URL. An absolute-form target (`GET http://host/v2/contacts`, as proxies
 * send it) becomes its path and query, and its authority becomes the Host: the RFC's rule
 * (the Host header is then ignored), which also keeps the loopback Host check honest.
 * Asterisk-form (`OPTIONS *`) and anything else that is not a path name no resource (404).
 */
export function originForm(req: IncomingMessage): string {
  const url = req.url ?? '';
  if (url.startsWith('/')) return url;
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^#]*)/i.exec(url);
  if (!m) return `/${encodeURIComponent(url)}`;
  req.headers.host = (m[1] ?? '').replace(/^.*@/, '');
  const rest = m[2] ?? '';
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** Options of node's HTTP server: a missing Host is answered by the Host check below, in the envelope (node's own 400 has no body). */
export const HTTP_SERVER_OPTIONS = { requireHostHeader: false } as const;

/** Paths whose requests carry credentials: the API, and the sandbox extension where it is served. */
const isAuthenticated = (path: string, sandbox: boolean): boolean =>
  path === '/v2' || path.startsWith('/v2/') || (sandbox && (path === '/sandbox' || path.startsWith('/sandbox/')));

/** The path a request names, for one no route matched: decoded, so `/%76%32/x` is still under /v2. */
function pathOfUnrouted(url: string): string {
  const p = url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(p).replace(/\/{2,}/g, '/');
  } catch {
    return p;
  }
}

/** The envelope as raw HTTP, for failures fastify answers before any route (bad URL encoding, unparsable requests). */
export function rawEnvelope(status: number, reason: string, message: string): string {
  const body = JSON.stringify({ errors: { general: [message] } });
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

export interface PlumbingOptions {
  auth: Authenticator;
  /** When bound to loopback, only loopback Host headers are accepted (DNS-rebinding guard). */
  checkHost: boolean;
  log: (line: string) => void;
  /** Whether /sandbox is served (and so authenticated); a production engine answers it 404 like any unknown path. */
  sandbox: boolean;
}

export function installPlumbing(app: FastifyInstance, opts: PlumbingOptions): void {
  const patterns = new Map<string, RoutePattern>();
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!url) return;
    let p = patterns.get(url);
    if (!p) {
      const re = new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);
      p = { re, methods: new Set() };
      patterns.set(url, p);
    }
    for (const m of [route.method].flat()) p.methods.add(String(m).toUpperCase());
  });

  app.decorateRequest('auth', undefined as never);

  // Failures node answers itself before any route, in the envelope: an Expect other than
  // 100-continue (node's 417 has no body) and CONNECT (node would just drop the socket).
  app.server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({ errors: { general: [MSG.EXPECTATION_FAILED] } });
    res.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
    res.end(body);
  });
  app.server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.end(rawEnvelope(405, 'Method Not Allowed', MSG.TUNNEL_NOT_SERVED));
  });

  // Callback hooks, not async ones: these run on every request, and an async hook costs
  // each a promise and a microtask turn.
  app.addHook('onRequest', (req, _reply, done) => {
    try {
      checkRequest(req);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
  const checkRequest = (req: FastifyRequest): void => {
    // Card numbers in the query string are masked once, before any hook or handler reads
    // it (a sort or filter error then cannot echo one); the route's declaration says which
    // parameters keep their digits.
    maskQuery(req.query, req.routeOptions.config?.keepsDigits);
    // HTTP/1.1 needs exactly one Host (RFC 9112 §3.2); absolute-form requests got theirs from the target (originForm).
    let hosts = 0;
    const raw = req.raw.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i] as string;
      if (name.length === 4 && name.toLowerCase() === 'host') hosts++;
    }
    if (hosts > 1) throw new ApiError(400, { general: [MSG.HOST_DUPLICATE] });
    if (!req.headers.host && req.raw.httpVersionMajor === 1 && req.raw.httpVersionMinor >= 1) throw new ApiError(400, { general: [MSG.HOST_MISSING] });
    if (opts.checkHost) {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      if (!isLoopback(host)) throw new ApiError(403, { general: [MSG.HOST_NOT_ALLOWED] });
    }
    // Who must authenticate is decided on the route that matched (its declared path), not
    // on the URL's spelling: `/%76%32/contacts` routes to /v2/contacts and must not pass
    // unauthenticated. A request no route matched is judged on its decoded path (an
    // unknown /v2 path answers 401 before 404).
    if (isAuthenticated(req.routeOptions.url ?? pathOfUnrouted(req.url), opts.sandbox)) req.auth = opts.auth.authenticate(req);
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') throw new ApiError(415, { general: [MSG.UNSUPPORTED_ENCODING] });
  };

  // JSON only; an empty body is treated as "no body" (the wrapper check then answers 422).
  app.removeAllContentTypeParsers();
  const parseJson = (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new ApiError(400, { general: [MSG.MALFORMED_JSON] }), undefined);
    }
    try {
      done(null, acceptBody(parsed, req.routeOptions.config?.keepsDigits));
    } catch (err) {
      done(err as Error, undefined);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, parseJson);
  app.addContentTypeParser(/^application\/[\w.-]+\+json(;.*)?$/, { parseAs: 'string', bodyLimit: BODY_LIMIT }, parseJson);
  const parseXml = (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, acceptBody(parseXmlBody(text), req.routeOptions.config?.keepsDigits));
    } catch (err) {
      done(err as Error, undefined);
    }
  };
  app.addContentTypeParser(/^(application|text)\/([\w.-]+\+)?xml(;.*)?$/i, { parseAs: 'string', bodyLimit: BODY_LIMIT }, parseXml);

  // Answers (errors included) in XML when the caller asked for it; JSON otherwise.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (typeof payload !== 'string' || payload === '' || !wantsXml(req.headers.accept, req.headers['content-type'])) return done(null, payload);
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('application/json')) return done(null, payload);
    reply.header('content-type', 'application/xml; charset=utf-8');
    let xml: string;
    try {
      xml = toXml(JSON.parse(payload));
    } catch (err) {
      return done(err as Error);
    }
    done(null, xml);
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const allowed = new Set<string>();
    for (const p of patterns.values()) if (p.re.test(path)) for (const m of p.methods) allowed.add(m);
    allowed.delete('HEAD');
    if (allowed.size > 0) {
      const list = [...allowed].sort().join(', ');
      return send(reply, 405, { general: [fmt(MSG.METHOD_NOT_ALLOWED, { methods: list })] }, { allow: list });
    }
    return send(reply, 404, { general: [MSG.PATH_NOT_FOUND] });
  });

  app.setErrorHandler((err: FastifyError | ApiError | Error, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ApiError) return send(reply, err.status, err.errors, err.headers);
    const code = (err as FastifyError).code;
    const status = (err as FastifyError).statusCode;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) return send(reply, 413, { general: [MSG.BODY_TOO_LARGE] });
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) return send(reply, 415, { general: [MSG.UNSUPPORTED_MEDIA_TYPE] });
    if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) {
      return send(reply, 400, { general: [MSG.MALFORMED_JSON] });
    }
    if (typeof status === 'number' && status >= 400 && status < 500) return send(reply, status, { general: [MSG.BAD_REQUEST] });
    // Safety net: a constraint the declarations did not check first is still the caller's conflict, not a crash.
    if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT')) {
      opts.log(`constraint ${code} on ${req.method} ${req.url.split('?')[0]}: ${err.message}`);
      return send(reply, 409, { general: [MSG.CONFLICT] });
    }
    opts.log(`internal error on ${req.method} ${req.url.split('?')[0]}: ${err.stack ?? err.message}`);
    return send(reply, 500, { general: [MSG.INTERNAL] });
  });
}

/**
 * Slow-client limits of the engine's HTTP server, so a half-sent request or an idle
 * connection cannot hold a socket (or the tests) forever. Node checks the header and
 * request deadlines every `checkEveryMs`, so that interval bounds how late a cut comes.
 */
export const LIMITS = {
  /** All request headers must arrive within this. */
  headersTimeoutMs: 10_000,
  /** The whole request (headers and body) must arrive within this; the answer may take longer. */
  requestTimeoutMs: 30_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** A socket with no traffic at all for this long is destroyed (longer than any settle). */
  idleSocketMs: 120_000,
  checkEveryMs: 1_000,
} as const;

/** Fastify/node server options for the limits; `requestTimeoutMs` shortens both deadlines (tests). */
export function serverTimeouts(requestTimeoutMs?: number, headersTimeoutMs?: number) {
  const request = requestTimeoutMs ?? LIMITS.requestTimeoutMs;
  const headers = Math.min(headersTimeoutMs ?? LIMITS.headersTimeoutMs, request);
  return {
    requestTimeout: request,
    keepAliveTimeout: LIMITS.keepAliveTimeoutMs,
    connectionTimeout: LIMITS.idleSocketMs,
    http: { headersTimeout: headers, connectionsCheckingInterval: Math.min(LIMITS.checkEveryMs, Math.max(100, Math.floor(headers / 4))) },
  };
}

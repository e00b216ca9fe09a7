/**
 * The engine describes itself: `GET /openapi.json` (the OpenAPI 3.1 document built from
 * the declarations and the modules' parts) and `GET /docs`, a browsable reference
 * rendered by Scalar's standalone browser bundle, served from node_modules by the
 * engine (`/docs/scalar.js`, from build/vendor/ or node_modules), so the page works offline. Neither needs credentials
 * (they describe the interface, not data); the Host check still applies.
 *
 * The page turns off everything of Scalar's that would reach the network: default fonts
 * (fonts.scalar.com), the request proxy, the hosted client and the AI agent; a test
 * loads it in Chromium and fails on any request that leaves the engine.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ApiError, MSG } from './errors';
import { errorResponses, jsonContent, type OpenApiPart } from './openapi-document';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';
export const DOCS_SCRIPT_PATH = '/docs/scalar.js';

/** What Scalar is told: our document, no network, the engine's own look kept simple. */
const SCALAR_CONFIG = {
  url: OPENAPI_PATH,
  withDefaultFonts: false,
  hideClientButton: true,
  hideDownloadButton: false,
  showDeveloperTools: 'never',
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: 'json',
  defaultOpenAllTags: false,
  theme: 'default',
};

export function docsPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ringup gateway engine — API reference</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
:root{--scalar-font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--scalar-font-code:ui-monospace,"DejaVu Sans Mono",monospace}</style>
</head>
<body>
<div id="app"></div>
<script src="${DOCS_SCRIPT_PATH}"></script>
<script>Scalar.createApiReference('#app', ${JSON.stringify(SCALAR_CONFIG)});</script>
</body>
</html>
`;
}

/**
 * The bundle: the copy the build puts next to the built code (build/vendor/, what the packaged
 * app ships), else the dev dependency in node_modules (tests running from source).
 */
let scalarBundle: Buffer | undefined;
function scalarScript(): Buffer | undefined {
  if (scalarBundle) return scalarBundle;
  const candidates = [fileURLToPath(new URL('../vendor/scalar-standalone.js', import.meta.url))];
  try {
    candidates.push(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'));
  } catch {
    // not installed: only the copy in build/vendor can serve
  }
  const found = candidates.find((p) => existsSync(p));
  scalarBundle = found ? readFileSync(found) : undefined;
  return scalarBundle;
}

/** These three routes in the document. */
export function referenceOpenApi(): OpenApiPart {
  const open = { security: [], tags: ['engine'] };
  return {
    tags: [{ name: 'engine', description: 'The engine itself: health and this description.' }],
    paths: {
      '/health': {
        get: {
          ...open,
          operationId: 'health',
          summary: 'Liveness probe',
          responses: {
            200: { description: 'Running.', content: jsonContent({ type: 'object', required: ['status'], properties: { status: { const: 'ok' } } }) },
            ...errorResponses([403]),
          },
        },
      },
      [OPENAPI_PATH]: {
        get: {
          ...open,
          operationId: 'openapi',
          summary: 'This OpenAPI 3.1 document',
          responses: { 200: { description: 'The document.', content: jsonContent({ type: 'object', required: ['openapi', 'paths'], properties: { openapi: { type: 'string' }, paths: { type: 'object' } } }) }, ...errorResponses([403]) },
        },
      },
      [DOCS_PATH]: {
        get: {
          ...open,
          operationId: 'docs',
          summary: 'Browsable API reference (HTML)',
          responses: { 200: { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } }, ...errorResponses([403]) },
        },
      },
      [DOCS_SCRIPT_PATH]: {
        get: {
          ...open,
          operationId: 'docsScript',
          summary: 'The reference renderer (Scalar standalone bundle)',
          responses: { 200: { description: 'JavaScript.', content: { 'text/javascript': { schema: { type: 'string' } } } }, ...errorResponses([403, 404]) },
        },
      },
    },
  };
}

export function registerReferenceRoutes(app: FastifyInstance, document: () => Record<string, unknown>): void {
  app.get(OPENAPI_PATH, async (_req, reply) => reply.type('application/json; charset=utf-8').send(document()));
  app.get(DOCS_PATH, async (_req, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(docsPage()));
  app.get(DOCS_SCRIPT_PATH, async (_req, reply) => {
    const script = scalarScript();
    if (!script) throw new ApiError(404, { general: [MSG.REFERENCE_RENDERER_MISSING] });
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').send(script);
  });
}

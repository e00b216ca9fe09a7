/**
 * Who may perform each operation, in the OpenAPI document: derived from the routes' own
 * declarations (`config.allow`, permissions.ts), never written a second time. Every
 * /v2 and /sandbox operation gets
 * - `x-ringup-user-types`: the user_type_ids allowed (for an operation by action, every
 *   type that may perform at least one action),
 * - `x-ringup-user-types-by-action` for operations whose body's `action` decides,
 * - a sentence in its description naming them, and the 403 response.
 */
import { describeTypes, GUARDED_PATH, isActionAllow, allowedTypes, openApiPath, type RouteAllow } from './permissions';

export { openApiPath };
import type { OpenApiOperation } from './openapi-document';

/** A registered route as the engine lists it (engine.ts `routes`). */
export interface DeclaredRoute {
  method: string;
  url: string;
  allow?: RouteAllow;
}

function sentenceOf(allow: RouteAllow): string {
  if (!isActionAllow(allow)) return `User types allowed: ${describeTypes(allow)}.`;
  const parts = Object.entries(allow.actions).map(([action, types]) => `\`${action}\`: ${describeTypes(types)}`);
  const def = allow.defaultAction ? ` Without an action it is \`${allow.defaultAction}\`.` : '';
  const effective = allow.effective ? ` ${allow.effective.description}` : '';
  return `User types allowed, by \`${allow.wrapper}.action\`: ${parts.join('; ')}.${def}${effective}`;
}

/** Adds the declarations to the document's operations (in place) and returns it. */
export function withPermissions(document: Record<string, unknown>, routes: readonly DeclaredRoute[]): Record<string, unknown> {
  const byKey = new Map<string, RouteAllow>();
  for (const r of routes) if (r.allow !== undefined) byKey.set(`${r.method.toLowerCase()} ${openApiPath(r.url)}`, r.allow);
  const paths = document.paths as Record<string, Record<string, OpenApiOperation>>;
  for (const [path, ops] of Object.entries(paths)) {
    if (!GUARDED_PATH.test(path)) continue;
    for (const [method, op] of Object.entries(ops)) {
      const allow = byKey.get(`${method} ${path}`);
      if (allow === undefined) continue; // documented but not served: openapi.test.ts reports it
      op['x-ringup-user-types'] = [...allowedTypes(allow)];
      if (isActionAllow(allow)) op['x-ringup-user-types-by-action'] = Object.fromEntries(Object.entries(allow.actions).map(([a, t]) => [a, [...t]]));
      const sentence = sentenceOf(allow);
      op.description = typeof op.description === 'string' && op.description !== '' ? `${op.description}\n\n${sentence}` : sentence;
      const responses = (op.responses ??= {}) as Record<string, unknown>;
      responses['403'] ??= { $ref: '#/components/responses/Error403' };
    }
  }
  return document;
}

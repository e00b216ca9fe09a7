/**
 * The README's "Roles" table, rendered from the routes' own declarations (permissions.ts):
 * one row per operation (per action where the body's action decides), one column per user
 * type. test/gateway/permission-matrix.test.ts checks that the README holds exactly this
 * rendering (and rewrites it with UPDATE_PERMISSION_TABLE=1).
 */
import { GUARDED_PATH, USER_TYPES, isActionAllow, type Allow } from './permissions';
import { openApiPath, type DeclaredRoute } from './permission-openapi';

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'DELETE'];

export function renderPermissionTable(routes: readonly DeclaredRoute[]): string {
  const rows: { path: string; method: string; label: string; allow: Allow }[] = [];
  for (const r of routes) {
    if (!GUARDED_PATH.test(r.url) || r.allow === undefined) continue;
    const path = openApiPath(r.url);
    if (!isActionAllow(r.allow)) rows.push({ path, method: r.method, label: `${r.method} ${path}`, allow: r.allow });
    else for (const [action, allow] of Object.entries(r.allow.actions)) rows.push({ path, method: r.method, label: `${r.method} ${path} \`${action}\``, allow });
  }
  rows.sort((a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method) || a.label.localeCompare(b.label));
  const head = `| operation | ${USER_TYPES.map((t) => `${t.id} ${t.name}`).join(' | ')} |`;
  const rule = `| --- | ${USER_TYPES.map(() => ':---:').join(' | ')} |`;
  const body = rows.map((r) => `| ${r.label} | ${USER_TYPES.map((t) => (r.allow.includes(t.id) ? '✔' : '')).join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}

/**
 * The embedded engine as an integrator reaches it, for tests that seed or check records
 * through the v2 API: its credentials.json (in the host's data folder) and the headers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** credentials.json of an engine (base_url, developer_id, user_id, user_api_key, location_id …). */
export type EngineCreds = Record<string, string> & { base_url: string; developer_id: string; user_id: string; user_api_key: string; location_id: string };

/** The credentials of the engine embedded in a host with this data folder. */
export function engineCredentials(hostDataDir: string): EngineCreds {
  return JSON.parse(readFileSync(join(hostDataDir, 'gateway', 'credentials.json'), 'utf8')) as EngineCreds;
}

/** The v2 headers for these credentials, with a JSON body. */
export function engineHeaders(c: Pick<EngineCreds, 'developer_id' | 'user_id' | 'user_api_key'>): Record<string, string> {
  return { 'content-type': 'application/json', 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key };
}

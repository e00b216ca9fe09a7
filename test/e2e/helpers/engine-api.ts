/**
 * The embedded engine as an integrator reaches it, for tests that seed or check records
 * through the v2 API: its credentials (opened from the host's data folder) and the headers.
 */
import { embeddedCredentials, type EngineCreds } from '../../helpers/embedded-credentials';

export type { EngineCreds };

/** The credentials of the engine embedded in a host with this data folder. */
export function engineCredentials(hostDataDir: string): EngineCreds {
  return embeddedCredentials(hostDataDir);
}

/** The v2 headers for these credentials, with a JSON body. */
export function engineHeaders(c: Pick<EngineCreds, 'developer_id' | 'user_id' | 'user_api_key'>): Record<string, string> {
  return { 'content-type': 'application/json', 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key };
}

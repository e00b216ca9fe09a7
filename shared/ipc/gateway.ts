/**
 * The `gateway:*` connection channels (managers): which gateway the counter uses, test a
 * gateway's credentials, and change it (applies at the next start). No secret is ever
 * answered; the API key goes one way, from the form to the core.
 */
import { z } from 'zod';
import { idSchema } from './common';
import { MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

const urlSchema = z
  .string()
  .trim()
  .max(300)
  .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'Enter the gateway’s base URL, like https://api.sandbox.example.com/v2.');
/** The developer id (and user id) the gateway gave: the common id rule, with a sentence when empty. */
const givenId = (what: string) => z.string().trim().min(1, `Enter the ${what} the gateway gave you.`).pipe(idSchema);
const keySchema = z.string().trim().min(16, 'An API key has at least 16 characters.').max(64).regex(/^\S+$/, 'An API key has no spaces.');

export const remoteConnectionSchema = z.strictObject({ baseUrl: urlSchema, developerId: givenId('developer id'), userId: givenId('user id'), userApiKey: keySchema });

/** A remote gateway signed in with OAuth 2.0: the app's client registration at that gateway (the secret goes one way, to the core). */
export const oauthRemoteSchema = z.strictObject({
  kind: z.literal('remote'),
  baseUrl: urlSchema,
  developerId: givenId('developer id'),
  clientId: z.string().trim().min(1, 'Enter the client id the gateway gave this app.').max(100),
  clientSecret: z.string().trim().min(8, 'Enter the client secret the gateway gave this app.').max(200).regex(/^\S+$/, 'A client secret has no spaces.'),
});

export type GatewayAuthMethod = 'engine-keys' | 'api-key' | 'oauth';

export interface GatewayConnectionView {
  /** What this run uses. */
  mode: 'embedded' | 'remote';
  baseUrl: string;
  /** Set from RINGUP_GATEWAY_URL …: the saved choice does not apply while they are set. */
  fromEnvironment: boolean;
  developerId: string | null;
  userId: string | null;
  /** How this run signs in to the gateway. */
  authMethod: GatewayAuthMethod;
  /** What a manager saved, applied at the next start (null: never changed, the embedded engine). */
  saved: { kind: 'embedded' | 'remote'; auth: GatewayAuthMethod; baseUrl: string | null; developerId: string | null; userId: string | null; clientId: string | null } | null;
  /** The saved choice differs from what runs now. */
  restartNeeded: boolean;
  /** A manager signed this run out of the gateway: nothing more is sent with its credentials until Ringup starts again. */
  signedOut: boolean;
}

export const gatewayHandlers = {
  'gateway:connection': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none' },
  'gateway:test': { args: remoteConnectionSchema, access: MANAGER, effect: 'transient', audit: 'none' },
  'gateway:save': { args: z.union([z.strictObject({ kind: z.literal('embedded') }), remoteConnectionSchema.extend({ kind: z.literal('remote') })]), access: MANAGER, effect: 'settings', audit: audits(['settings-change'], ['detail']) },
  /** Opens the gateway's login page (the system browser, or `authorizeUrl` for the renderer to open) and a loopback listener for its answer. */
  'gateway:oauth-start': { args: z.union([z.strictObject({ kind: z.literal('embedded') }), oauthRemoteSchema]), access: MANAGER, effect: 'transient', audit: 'none' },
  /** Waits for that answer (up to the listener's timeout), exchanges the code, tests the token and saves the sign-in. */
  'gateway:oauth-finish': { args: z.strictObject({ attemptId: z.string().min(1).max(64) }), access: MANAGER, effect: 'settings', audit: audits(['settings-change'], ['detail']) },
  'gateway:oauth-cancel': { args: z.strictObject({ attemptId: z.string().min(1).max(64) }), access: MANAGER, effect: 'transient', audit: 'none' },
  /** Revokes the OAuth sign-in, forgets its tokens and the previous account's records; back to the embedded engine. */
  'gateway:sign-out': { args: z.void(), access: MANAGER, effect: 'settings', audit: audits(['settings-change'], ['detail']) },
  /** Whether this data folder still needs the first-run choice (no session needed). */
  'gateway:first-run': { args: z.void(), access: 'before-sign-in', effect: 'read', audit: 'none' },
  /** The first-run choice, accepted once: the embedded engine, or a remote gateway to finish on the Gateway screen. */
  'gateway:first-run-choose': {
    args: z.union([
      z.strictObject({ kind: z.literal('embedded') }),
      z.strictObject({ kind: z.literal('remote'), environment: z.enum(['sandbox', 'production']), baseUrl: urlSchema, developerId: givenId('developer id') }),
    ]),
    access: 'before-sign-in',
    effect: 'settings',
    audit: audits(['settings-change'], ['detail']),
  },
} as const satisfies ChannelDeclarations;

export interface FirstRunState {
  needed: boolean;
  /** A remote gateway picked at first run, still to be signed in on the Gateway screen. */
  pendingRemote: { environment: 'sandbox' | 'production'; baseUrl: string; developerId: string } | null;
}

export interface GatewayResults {
  'gateway:connection': GatewayConnectionView;
  'gateway:test': { ok: boolean; message: string; latencyMs: number | null };
  'gateway:save': GatewayConnectionView;
  'gateway:oauth-start': { attemptId: string; authorizeUrl: string; openedInBrowser: boolean };
  'gateway:oauth-finish': GatewayConnectionView;
  'gateway:oauth-cancel': null;
  'gateway:sign-out': GatewayConnectionView;
  'gateway:first-run': FirstRunState;
  'gateway:first-run-choose': FirstRunState;
}

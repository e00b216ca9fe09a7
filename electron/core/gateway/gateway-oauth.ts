/**
 * OAuth 2.0 sign-in of the counter to a gateway (managers), and the first-run choice.
 *
 * `gateway:oauth-start` opens a loopback listener (oauth-loopback.ts) and the gateway's
 * login page: in the system browser through the injected `openExternal` (Electron's
 * shell.openExternal), or — in the node host, which has no browser of its own — by
 * answering the URL for the renderer to open in a new tab. `gateway:oauth-finish` waits
 * for the redirect, exchanges the code at /o/token (authorization-code flow as the
 * engine implements it, no PKCE), tests the token on GET /users/me, revokes the previous
 * OAuth sign-in (switching accounts), and saves the new one: tokens and client secret in
 * the SecretStore, the rest in the app database. Like an API-key change, it applies at
 * the next start. Against the embedded engine the engine's own sandbox client is used,
 * so its own login page signs the counter in. `gateway:sign-out` revokes (POST
 * /o/revoke), forgets the tokens and the previous account's records, and goes back to
 * the embedded engine's keys. Who may do each, and what is audited, gateway.ts declares (the
 * channel rules enforce it): managers, except the first-run choice made before anyone signs in.
 */
import { randomUUID } from 'node:crypto';
import type { FirstRunState, GatewayConnectionView, HandlerMap } from '../../../shared/ipc/contract';
import { fail, ok } from '../../../shared/result';
import type { SecretStore } from '../../secrets/secret-store';
import type { AccountTarget } from './account-change-guard';
import { leaveAccount } from './account-records';
import { authUrlOf, readSavedConnection, REMOTE_KEY_SECRET, testConnection, writeSavedConnection } from './gateway-connection';
import { LoopbackError, startLoopbackListener, type LoopbackListener } from './oauth-loopback';
import { authorizeUrl, exchangeCode, newState, OAuthError, OAuthSession, revokeToken, type OAuthClientConfig, type TokenSet } from './oauth-session';
import { getSetting, setSetting, type PosDatabase } from '../platform/pos-database';

type Handlers = Pick<
  HandlerMap,
  'gateway:oauth-start' | 'gateway:oauth-finish' | 'gateway:oauth-cancel' | 'gateway:sign-out' | 'gateway:first-run' | 'gateway:first-run-choose'
>;

const FIRST_RUN_SETTING = 'first_run';

/** The embedded engine's own sandbox client (from its credentials), when the embedded engine runs. */
export interface EmbeddedOAuth {
  baseUrl: string;
  developerId: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface GatewayOAuthDeps {
  db: PosDatabase;
  secrets: SecretStore;
  view: () => GatewayConnectionView;
  embedded: () => EmbeddedOAuth | undefined;
  /** The OAuth sign-in this run uses, if any (sign-out drops its tokens at once). */
  runningSession: () => OAuthSession | undefined;
  /** Opens a URL in the system browser (Electron); absent in the node host. */
  openExternal?: (url: string) => Promise<void>;
  loopbackTimeoutMs?: number;
  /** The sentence that holds back a change to another account now (account-change-guard.ts), or null. */
  refuseAccountChange?: (target: AccountTarget) => string | null;
  /** This run's sign-in ended (its credentials are no longer sent; the status says so). */
  onSignedOut?: () => void;
}

export const OAUTH_UI = {
  over: 'This sign-in is over; start it again.',
  noEmbedded: 'The embedded engine is not running in this start of Ringup; sign in to it after the next start.',
  refusedToken: 'The gateway signed in, but then refused the token: check the developer id and the base URL.',
  finishing: 'This sign-in is already being finished.',
} as const;

interface Attempt {
  listener: LoopbackListener;
  state: string;
  config: OAuthClientConfig;
  kind: 'embedded' | 'remote';
  baseUrl: string;
  developerId: string;
  finishing?: boolean;
}

function readFirstRun(db: PosDatabase): FirstRunState {
  const raw = getSetting(db, FIRST_RUN_SETTING);
  if (raw === undefined) return { needed: true, pendingRemote: null };
  try {
    const v = JSON.parse(raw) as { pendingRemote?: FirstRunState['pendingRemote'] };
    return { needed: false, pendingRemote: v.pendingRemote ?? null };
  } catch {
    return { needed: false, pendingRemote: null };
  }
}

/** Marks the first run done (scripted installs, `--skip-first-run`): the default, the embedded engine. */
export function skipFirstRun(db: PosDatabase): void {
  if (getSetting(db, FIRST_RUN_SETTING) === undefined) setSetting(db, FIRST_RUN_SETTING, JSON.stringify({ choice: 'embedded', skipped: true }));
}

export function createGatewayOAuthHandlers(deps: GatewayOAuthDeps): Handlers & { close(): void; revokeAll(): Promise<boolean> } {
  const attempts = new Map<string, Attempt>();

  /** Revokes every OAuth sign-in this counter holds (the running one and a saved one not yet in use). */
  const revokeAll = async (): Promise<boolean> => {
    let revoked = false;
    const running = deps.runningSession();
    if (running?.signedIn) revoked = (await running.revoke()).revoked || revoked;
    const saved = await OAuthSession.load(deps.secrets);
    if (saved) revoked = (await saved.revoke()).revoked || revoked;
    return revoked;
  };

  return {
    'gateway:first-run': async () => ok(readFirstRun(deps.db)),
    'gateway:first-run-choose': async (c) => {
      // Before anyone signs in, but once only: afterwards the Gateway screen (managers) changes it.
      if (!readFirstRun(deps.db).needed) return fail('invalid', 'The first-run choice is already made; a manager changes the gateway on the Gateway screen.');
      const pendingRemote = c.kind === 'remote' ? { environment: c.environment, baseUrl: c.baseUrl.replace(/\/+$/, ''), developerId: c.developerId } : null;
      setSetting(deps.db, FIRST_RUN_SETTING, JSON.stringify({ choice: c.kind, pendingRemote }));
      return ok(readFirstRun(deps.db));
    },

    'gateway:oauth-start': async (c) => {
      // Refused before the browser: which user signs in is known only at the end (checked again there).
      const refusal = deps.refuseAccountChange?.(c.kind === 'embedded' ? { kind: 'embedded' } : { kind: 'remote', baseUrl: c.baseUrl });
      if (refusal) return fail('invalid', refusal);
      let target: Omit<Attempt, 'listener' | 'state'>;
      if (c.kind === 'embedded') {
        const e = deps.embedded();
        if (!e) return fail('invalid', OAUTH_UI.noEmbedded);
        target = { kind: 'embedded', baseUrl: e.baseUrl, developerId: e.developerId, config: { authUrl: e.authUrl, clientId: e.clientId, clientSecret: e.clientSecret } };
      } else {
        const baseUrl = c.baseUrl.replace(/\/+$/, '');
        target = { kind: 'remote', baseUrl, developerId: c.developerId, config: { authUrl: authUrlOf(baseUrl), clientId: c.clientId, clientSecret: c.clientSecret } };
      }
      // One sign-in at a time: a new start ends the previous one.
      for (const [id, a] of attempts) {
        a.listener.close();
        attempts.delete(id);
      }
      const state = newState();
      const listener = await startLoopbackListener({ state, ...(deps.loopbackTimeoutMs ? { timeoutMs: deps.loopbackTimeoutMs } : {}) });
      const attemptId = randomUUID();
      attempts.set(attemptId, { ...target, listener, state });
      const url = authorizeUrl(target.config, listener.redirectUri, state);
      let openedInBrowser = false;
      if (deps.openExternal) {
        try {
          await deps.openExternal(url);
          openedInBrowser = true;
        } catch {
          openedInBrowser = false;
        }
      }
      return ok({ attemptId, authorizeUrl: url, openedInBrowser });
    },

    'gateway:oauth-cancel': async (c) => {
      attempts.get(c.attemptId)?.listener.close();
      attempts.delete(c.attemptId);
      return ok(null);
    },

    'gateway:oauth-finish': async (c) => {
      const a = attempts.get(c.attemptId);
      if (!a) return fail('not_found', OAUTH_UI.over);
      // One exchange per code: a second one would make the gateway revoke the pair the first got.
      if (a.finishing) return fail('invalid', OAUTH_UI.finishing);
      a.finishing = true;
      let code: string;
      try {
        code = (await a.listener.result).code;
      } catch (err) {
        return fail('invalid', err instanceof LoopbackError ? err.message : OAUTH_UI.over);
      } finally {
        attempts.delete(c.attemptId);
      }
      let tokens: TokenSet;
      try {
        tokens = await exchangeCode(a.config, code, a.state, a.listener.redirectUri);
      } catch (err) {
        const why = err instanceof OAuthError ? err.message : 'The gateway did not answer.';
        return fail('invalid', `The gateway did not sign Ringup in: ${why}`);
      }
      const session = new OAuthSession(a.config, tokens, deps.secrets);
      const t = await testConnection(a.baseUrl, { developerId: a.developerId, userId: session.userId, userApiKey: '', tokens: session });
      if (!t.ok) {
        await revokeToken(a.config, tokens.refreshToken).catch(() => {});
        return fail('invalid', OAUTH_UI.refusedToken);
      }
      // Open money may have come while the browser was open: the new tokens go back then.
      const refusal = deps.refuseAccountChange?.({ kind: a.kind, baseUrl: a.baseUrl, userId: session.userId });
      if (refusal) {
        await revokeToken(a.config, tokens.refreshToken).catch(() => {});
        return fail('invalid', refusal);
      }
      // Switching accounts: the previous sign-in is revoked and its records go.
      await revokeAll();
      const before = readSavedConnection(deps.db);
      await session.save();
      await deps.secrets.delete(REMOTE_KEY_SECRET);
      writeSavedConnection(deps.db, {
        kind: a.kind,
        auth: 'oauth',
        ...(a.kind === 'remote' ? { baseUrl: a.baseUrl } : {}),
        developerId: a.developerId,
        userId: session.userId,
        clientId: a.config.clientId,
        authUrl: a.config.authUrl,
      });
      if (before && (before.kind !== a.kind || before.baseUrl !== (a.kind === 'remote' ? a.baseUrl : undefined) || before.userId !== session.userId)) leaveAccount(deps.db);
      return ok(deps.view());
    },

    'gateway:sign-out': async () => {
      // Signing out leaves for the embedded engine's own keys at the next start.
      const refusal = deps.refuseAccountChange?.({ kind: 'embedded' });
      if (refusal) return fail('invalid', refusal);
      await revokeAll();
      await deps.secrets.delete(REMOTE_KEY_SECRET);
      writeSavedConnection(deps.db, { kind: 'embedded' });
      leaveAccount(deps.db);
      deps.onSignedOut?.();
      return ok(deps.view());
    },

    revokeAll,
    close() {
      for (const a of attempts.values()) a.listener.close();
      attempts.clear();
    },
  };
}

/**
 * Gateway (managers): which payment gateway this counter uses, how it signs in, a test of
 * the connection now, and a change of it: the embedded engine (no account needed) or a
 * remote gateway, signed in with a user id and API key or with OAuth 2.0 (the gateway's
 * own login page in the browser; the embedded engine's too). Changes apply at the next
 * start. Keys and client secrets are typed here and go to the core once; tokens never
 * come here (the core keeps them in the secret store). Sign-out revokes the OAuth
 * sign-in (or forgets the API key), ends this run's sign-in at once — the screen then says,
 * in one place, that cards are refused until Ringup starts again — and drops what this
 * window holds of the previous account.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { CoreStatus, GatewayAuthMethod, GatewayConnectionView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { Fact } from '../ui/fact';
import { OutcomeNote, type Outcome } from '../sales/outcome-note';
import { PayPageAddress } from '../pay-pages/pay-page-address';
import { TextField } from '../ui/text-field';
import { useNavStore } from '../shell/nav-store';
import { resetUserStores } from '../auth/user-store';
import { generalMessage, type FormError } from '../ui/form-failure';

type Kind = 'embedded' | 'remote';
type Method = 'api-key' | 'oauth';

export const GATEWAY_UI = {
  savedEmbedded: 'Saved: the embedded engine. Close Ringup and start it again to use it.',
  savedRemote: 'Saved. Close Ringup and start it again to use this gateway.',
  envWins: 'Environment variables (RINGUP_GATEWAY_URL …) choose the gateway of this run; a saved choice applies when they are not set.',
  waiting: 'Finish signing in on the gateway’s page in the browser. Ringup waits here.',
  signedIn: (user: string) => `Signed in with OAuth as gateway user ${user}. Close Ringup and start it again to use it.`,
  signedOut: {
    oauth: 'Signed out: the gateway’s tokens are revoked and this counter’s records of that account are cleared.',
    'api-key': 'Signed out: the API key is forgotten and this counter’s records of that account are cleared.',
  },
  /** The one statement of what a sign-out means for this run (beside what is in use). */
  signedOutNow: 'Signed out of this gateway: cards cannot be charged until Ringup is started again. It then uses the embedded engine.',
} as const;

const METHOD_LABEL: Record<GatewayAuthMethod, string> = {
  'engine-keys': 'Its own keys (made on first start)',
  'api-key': 'API key (kept in the secret store)',
  oauth: 'OAuth 2.0 (tokens kept in the secret store, refreshed automatically)',
};
const METHOD_SIGNED_OUT: Record<GatewayAuthMethod, string> = { 'engine-keys': 'Its own keys', 'api-key': 'API key, signed out', oauth: 'OAuth 2.0, signed out' };

function healthSentence(g: CoreStatus['gateway']): Outcome {
  if (g.signedOut && g.health === 'refused') return { ok: false, text: 'Signed out: the gateway refuses this counter until Ringup is started again.' };
  if (g.health === 'ok') return { ok: true, text: `Connected: the gateway answered in ${g.latencyMs ?? 0} ms and accepted this counter’s sign-in.` };
  if (g.health === 'refused') return { ok: false, text: 'The gateway answered but refused this counter’s sign-in: sign in again below.' };
  if (g.health === 'restarting' || g.health === 'starting') return { ok: false, text: 'The embedded engine is starting again; test once more in a moment.' };
  return { ok: false, text: 'No gateway answered: check the network, or the address below.' };
}

/** The fields the change form shows a message beside. */
const FORM_FIELDS = ['baseUrl', 'developerId', 'userId', 'userApiKey', 'clientId', 'clientSecret'] as const;

/** A note that survives the screen's remount after sign-out (the per-user reset). */
let carriedNote: Outcome | null = null;

export function GatewayScreen() {
  const [view, setView] = useState<GatewayConnectionView | null>(null);
  const [kind, setKind] = useState<Kind>('embedded');
  const [method, setMethod] = useState<Method>('api-key');
  const [baseUrl, setBaseUrl] = useState('');
  const [developerId, setDeveloperId] = useState('');
  const [userId, setUserId] = useState('');
  const [userApiKey, setUserApiKey] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [note, setNote] = useState<Outcome | null>(() => {
    const n = carriedNote;
    carriedNote = null;
    return n;
  });
  const [checkNote, setCheckNote] = useState<Outcome | null>(null);
  const [attempt, setAttempt] = useState<{ attemptId: string; authorizeUrl: string; openedInBrowser: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const [r, first] = await Promise.all([ringup.gatewayConnection(), ringup.gatewayFirstRun()]);
    if (!r.ok) return setNote({ ok: false, text: r.error.message });
    setView(r.value);
    const saved = r.value.saved;
    const pending = first.ok ? first.value.pendingRemote : null;
    setKind(saved?.kind ?? (pending ? 'remote' : r.value.mode));
    setMethod(saved?.auth === 'oauth' ? 'oauth' : 'api-key');
    setBaseUrl(saved?.baseUrl ?? pending?.baseUrl ?? '');
    setDeveloperId(saved?.developerId ?? pending?.developerId ?? '');
    setUserId(saved?.auth === 'api-key' ? (saved.userId ?? '') : '');
    setClientId(saved?.clientId && saved.kind === 'remote' ? saved.clientId : '');
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const failed = (error: FormError) => {
    setFields(error.fields ?? {});
    const text = generalMessage(error, FORM_FIELDS);
    setNote(text ? { ok: false, text } : null);
  };

  const checkNow = async () => {
    setBusy(true);
    const r = await ringup.gatewayCheck();
    setBusy(false);
    setCheckNote(r.ok ? healthSentence(r.value) : { ok: false, text: r.error.message });
  };

  const remoteArgs = () => ({ baseUrl, developerId, userId, userApiKey });
  const test = async () => {
    setBusy(true);
    const r = await ringup.gatewayTest(remoteArgs());
    setBusy(false);
    if (!r.ok) return failed(r.error);
    setFields({});
    setNote({ ok: r.value.ok, text: r.value.message });
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (kind === 'remote' && method === 'oauth') return void signInOAuth();
    setBusy(true);
    const r = await ringup.gatewaySave(kind === 'embedded' ? { kind } : { kind, ...remoteArgs() });
    setBusy(false);
    if (!r.ok) return failed(r.error);
    setFields({});
    setUserApiKey('');
    setView(r.value);
    setNote({ ok: true, text: kind === 'embedded' ? GATEWAY_UI.savedEmbedded : GATEWAY_UI.savedRemote });
  };

  const signInOAuth = async () => {
    setBusy(true);
    setNote(null);
    const started = await ringup.gatewayOauthStart(kind === 'embedded' ? { kind } : { kind, baseUrl, developerId, clientId, clientSecret });
    if (!started.ok) {
      setBusy(false);
      return failed(started.error);
    }
    setFields({});
    setAttempt(started.value);
    // The node host has no system browser of its own: the login page opens in a new tab.
    if (!started.value.openedInBrowser) window.open(started.value.authorizeUrl, '_blank', 'noopener,noreferrer');
    const r = await ringup.gatewayOauthFinish({ attemptId: started.value.attemptId });
    setAttempt(null);
    setBusy(false);
    if (!r.ok) return failed(r.error);
    setClientSecret('');
    setView(r.value);
    setNote({ ok: true, text: GATEWAY_UI.signedIn(r.value.saved?.userId ?? '') });
  };
  const cancel = async () => {
    if (attempt) await ringup.gatewayOauthCancel({ attemptId: attempt.attemptId });
  };

  const signOut = async () => {
    setBusy(true);
    const r = await ringup.gatewaySignOut();
    setBusy(false);
    if (!r.ok) return failed(r.error);
    // Nothing of the previous account stays in this window: every user store starts again.
    carriedNote = { ok: true, text: GATEWAY_UI.signedOut[view?.authMethod === 'oauth' ? 'oauth' : 'api-key'] };
    resetUserStores();
    useNavStore.getState().go('gateway');
  };

  const err = (f: string) => fields[f]?.[0] ?? null;
  // Something to sign out of: a saved OAuth or API-key sign-in (a run from environment variables is not the app's to end).
  const signedInRemotely = view && !view.fromEnvironment && !view.signedOut && (view.saved ? view.saved.auth !== 'engine-keys' : view.authMethod !== 'engine-keys');

  return (
    <div className="system-layout">
      <section className="screen panel" aria-labelledby="gateway-title">
        <h1 id="gateway-title" tabIndex={-1} data-screen-focus>
          Gateway
        </h1>
        {view && (
          <dl className="facts" data-testid="gateway-now">
            <Fact label="In use now">{view.mode === 'embedded' ? 'Embedded gateway engine' : 'Remote gateway'}</Fact>
            <Fact label="Address" mono>
              {view.baseUrl}
            </Fact>
            {view.developerId && <Fact label="Developer id" mono>{view.developerId}</Fact>}
            {view.userId && <Fact label="Gateway user" mono>{view.userId}</Fact>}
            <Fact label="Signs in with">{view.signedOut ? METHOD_SIGNED_OUT[view.authMethod] : METHOD_LABEL[view.authMethod]}</Fact>
          </dl>
        )}
        {view?.signedOut && (
          <p className="notice notice-error" data-testid="gateway-signed-out">
            {GATEWAY_UI.signedOutNow}
          </p>
        )}
        {view?.fromEnvironment && <p className="notice notice-info">{GATEWAY_UI.envWins}</p>}
        {view?.restartNeeded && !view.signedOut && !note && <p className="notice notice-info">A saved change applies at the next start of Ringup.</p>}
        <OutcomeNote note={checkNote} />
        <div className="gateway-signin-actions">
          <button type="button" className="btn btn-secondary btn-lg" onClick={() => void checkNow()} disabled={busy}>
            Test the connection
          </button>
          {signedInRemotely && (
            <button type="button" className="btn btn-secondary btn-lg" onClick={() => void signOut()} disabled={busy}>
              Sign out of the gateway
            </button>
          )}
        </div>
      </section>

      <PayPageAddress />

      <form className="panel gateway-form" aria-labelledby="gateway-change-title" onSubmit={save}>
        <h2 id="gateway-change-title" className="section-title">
          Change the gateway
        </h2>
        <div className="segmented" role="radiogroup" aria-label="Gateway">
          {(['embedded', 'remote'] as const).map((k) => (
            <button key={k} type="button" role="radio" aria-checked={kind === k} className="segment" onClick={() => setKind(k)}>
              {k === 'embedded' ? 'Embedded engine' : 'Remote gateway'}
              <span className="segment-sub">{k === 'embedded' ? 'no account needed' : 'sandbox or production'}</span>
            </button>
          ))}
        </div>
        {kind === 'remote' && (
          <div className="segmented" role="radiogroup" aria-label="Sign in with">
            {(['api-key', 'oauth'] as const).map((m) => (
              <button key={m} type="button" role="radio" aria-checked={method === m} className="segment" onClick={() => setMethod(m)}>
                {m === 'api-key' ? 'User id and API key' : 'OAuth 2.0'}
                <span className="segment-sub">{m === 'api-key' ? 'typed here once' : 'the gateway’s own login page'}</span>
              </button>
            ))}
          </div>
        )}
        {kind === 'remote' && (
          <div className="settings-grid gateway-grid">
            <TextField id="gw-url" label="Base URL" value={baseUrl} placeholder="https://api.sandbox.example.com/v2" error={err('baseUrl')} onChange={setBaseUrl} />
            <TextField id="gw-dev" label="Developer id" value={developerId} error={err('developerId')} onChange={setDeveloperId} />
            {method === 'api-key' ? (
              <>
                <TextField id="gw-user" label="User id" value={userId} error={err('userId')} onChange={setUserId} />
                <TextField id="gw-key" label="API key" type="password" value={userApiKey} hint="Kept only in this computer’s secret store." error={err('userApiKey')} onChange={setUserApiKey} />
              </>
            ) : (
              <>
                <TextField id="gw-client" label="Client id" value={clientId} hint="The gateway registers this app and gives its id." error={err('clientId')} onChange={setClientId} />
                <TextField id="gw-secret" label="Client secret" type="password" value={clientSecret} hint="Kept only in this computer’s secret store." error={err('clientSecret')} onChange={setClientSecret} />
              </>
            )}
          </div>
        )}
        {attempt && (
          <p className="notice notice-info" role="status">
            {GATEWAY_UI.waiting}{' '}
            {!attempt.openedInBrowser && (
              <a href={attempt.authorizeUrl} target="_blank" rel="noopener noreferrer">
                Open the sign-in page again
              </a>
            )}
          </p>
        )}
        <OutcomeNote note={note} />
        <div className="form-actions">
          {attempt ? (
            <button type="button" className="btn btn-secondary btn-lg" onClick={() => void cancel()}>
              Cancel sign-in
            </button>
          ) : (
            <>
              {kind === 'remote' && method === 'api-key' && (
                <button type="button" className="btn btn-secondary btn-lg" onClick={() => void test()} disabled={busy}>
                  Test connection
                </button>
              )}
              {kind === 'embedded' && (
                <button type="button" className="btn btn-secondary btn-lg" onClick={() => void signInOAuth()} disabled={busy}>
                  Sign in with OAuth
                </button>
              )}
              <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
                {kind === 'remote' && method === 'oauth' ? 'Sign in with OAuth' : 'Save'}
              </button>
            </>
          )}
        </div>
      </form>
    </div>
  );
}

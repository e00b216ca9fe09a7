import { useCallback, useEffect } from 'react';
import { GatewayBanner } from './shell/gateway-banner';
import { LostPaymentsNote } from './sales/lost-payments-note';
import { UnconfirmedOfflineDialog } from './queue/unconfirmed-offline-dialog';
import { HelpOverlay } from './shell/help-overlay';
import { AmountQuestionDialog } from './sales/large-amount-dialog';
import { StatusBar } from './shell/status-bar';
import { TopBar } from './shell/top-bar';
import { focusScreen } from './shell/focus-screen';
import { startActivityReporter } from './shell/activity-reporter';
import { isTypingTarget } from './shell/shortcuts';
import { keyRefusal, mayOpen, SCREENS, screenDef } from './shell/screen-registry';
import { renderScreen } from './shell/screen-views';
import { SignInScreen } from './auth/sign-in-screen';
import { useNavStore } from './shell/nav-store';
import { useSessionStore } from './auth/session-store';
import { useSettingsStore } from './settings/settings-store';
import { useResetEpoch } from './auth/user-store';
import { useStatusStore } from './shell/status-store';
import { useThemeStore } from './shell/theme-store';
import { BareShell } from './shell/bare-shell';
import { PartialLeaveDialog } from './sales/partial-leave-dialog';
import { useSaleStore } from './sales/sale-store';

export function App() {
  const status = useStatusStore((s) => s.status);
  const statusError = useStatusStore((s) => s.error);
  const loadStatus = useStatusStore((s) => s.load);
  const { session, loaded, connectionError, load: loadSession, signOut } = useSessionStore();
  const { screen, helpOpen, keyNote, go, setHelp } = useNavStore();
  const toggleTheme = useThemeStore((s) => s.toggle);
  const loadSettings = useSettingsStore((s) => s.load);
  // Bumped whenever the person changes: the screen area below remounts, dropping open dialogs and drafts.
  const epoch = useResetEpoch((s) => s.epoch);
  const userId = session?.user.id;

  useEffect(() => {
    void loadStatus();
    void loadSession();
  }, [loadStatus, loadSession]);

  useEffect(() => startActivityReporter(), []);

  useEffect(() => {
    if (userId) void loadSettings();
  }, [userId, loadSettings]);

  // Sign-out resets every user store (nav included: the next person starts on the sale screen). A sale whose
  // outcome is unknown keeps the person (the sale screen says why); an open partial approval asks first.
  const switchUser = useCallback(() => {
    if (!useSaleStore.getState().holdsSwitchUser()) return void signOut();
    // Refused (not asked): show the sale that holds the counter, with its sentence.
    if (useSaleStore.getState().leaving === null && useNavStore.getState().screen !== 'sale') go('sale');
  }, [signOut, go]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      const signedIn = useSessionStore.getState().session !== null;
      const help = useNavStore.getState().helpOpen;
      if (e.key === 'F1' || (e.key === '?' && !isTypingTarget(e.target))) {
        e.preventDefault();
        setHelp(!help);
      } else if (e.key === 'Escape' && help) {
        e.preventDefault();
        setHelp(false);
      } else if (SCREENS.some((s) => s.key === e.key)) {
        const def = SCREENS.find((s) => s.key === e.key)!;
        // Always ours: a browser would reload on F5 (signing this window out and losing the
        // sale in progress), search on F3, or jump to the address bar on F6.
        e.preventDefault();
        if (!mayOpen(def, useSessionStore.getState().session?.user.role ?? null)) {
          // Signed in but not this role's key: say why rather than seem broken (signed out, the sign-in screen asks first).
          if (signedIn) useNavStore.getState().sayKeyNote(keyRefusal(def));
          return;
        }
        go(def.id);
        focusScreen();
      } else if (e.key === 'F8' && signedIn) {
        e.preventDefault();
        switchUser();
      } else if (e.key === 'F9') {
        e.preventDefault();
        toggleTheme();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, setHelp, switchUser, toggleTheme]);

  const fatal = connectionError ?? (!session && statusError && !status ? statusError : null);
  if (fatal) {
    return (
      <BareShell>
        <section className="panel panel-narrow" aria-labelledby="fatal-title">
          <h1 id="fatal-title">Ringup is not connected</h1>
          <p role="alert" className="notice notice-error">
            {fatal}
          </p>
        </section>
      </BareShell>
    );
  }

  // The screen asked for, if this user may open it; otherwise the sale screen (or sign-in).
  const asked = screenDef(screen);
  const role = session?.user.role ?? null;
  let main;
  if (asked && !asked.needsSession) main = renderScreen(asked.id);
  else if (!loaded) main = <p className="muted content-center">Connecting to Ringup…</p>;
  else if (!session) main = <SignInScreen />;
  // Otherwise the first tab this role may open (installers: Devices).
  else main = renderScreen((asked && mayOpen(asked, role) ? asked : (SCREENS.find((d) => d.group === 'tab' && d.needsSession && mayOpen(d, role)) ?? screenDef('sale')!)).id);

  return (
    <div className="app">
      <TopBar session={session} onSwitchUser={switchUser} />
      <GatewayBanner status={status} />
      {session && <UnconfirmedOfflineDialog userId={session.user.id} role={session.user.role} />}
      <main className="content" id="main" key={epoch}>
        <LostPaymentsNote session={session} />
        {session && keyNote && (
          <p className="notice notice-info key-note" role="status" data-testid="key-note">
            {keyNote}
          </p>
        )}
        {main}
        {session && <AmountQuestionDialog />}
      </main>
      <StatusBar status={status} session={session} />
      {helpOpen && <HelpOverlay />}
      <PartialLeaveDialog />
    </div>
  );
}

import { useCallback, useEffect } from 'react';
import { HelpOverlay } from './components/help-overlay';
import { StatusBar } from './components/status-bar';
import { focusScreen, TopBar } from './components/top-bar';
import { isTypingTarget } from './lib/shortcuts';
import { SaleScreen } from './screens/sale-screen';
import { SignInScreen } from './screens/sign-in-screen';
import { SystemScreen } from './screens/system-screen';
import { TransactionsScreen } from './screens/transactions-screen';
import { useNavStore } from './stores/nav-store';
import { useSessionStore } from './stores/session-store';
import { useStatusStore } from './stores/status-store';
import { useThemeStore } from './stores/theme-store';

export function App() {
  const status = useStatusStore((s) => s.status);
  const statusError = useStatusStore((s) => s.error);
  const loadStatus = useStatusStore((s) => s.load);
  const { session, loaded, connectionError, load: loadSession, signOut } = useSessionStore();
  const { screen, helpOpen, go, setHelp } = useNavStore();
  const toggleTheme = useThemeStore((s) => s.toggle);

  useEffect(() => {
    void loadStatus();
    void loadSession();
  }, [loadStatus, loadSession]);

  const switchUser = useCallback(() => {
    void signOut();
    if (useNavStore.getState().screen === 'system') go('sale');
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
      } else if (e.key === 'F2' && signedIn) {
        e.preventDefault();
        go('sale');
        focusScreen();
      } else if (e.key === 'F3' && signedIn) {
        e.preventDefault();
        go('transactions');
        focusScreen();
      } else if (e.key === 'F4') {
        e.preventDefault();
        go('system');
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
      <div className="app">
        <header className="top-bar">
          <span className="brand">
            <img src="./icon.svg" alt="" width={32} height={32} /> Ringup
          </span>
        </header>
        <main className="content content-center">
          <section className="panel panel-narrow" aria-labelledby="fatal-title">
            <h1 id="fatal-title">Ringup is not connected</h1>
            <p role="alert" className="notice notice-error">
              {fatal}
            </p>
          </section>
        </main>
      </div>
    );
  }

  let main;
  if (screen === 'system') main = <SystemScreen />;
  else if (!loaded) main = <p className="muted content-center">Connecting to Ringup…</p>;
  else if (!session) main = <SignInScreen />;
  else if (screen === 'transactions') main = <TransactionsScreen />;
  else main = <SaleScreen />;

  return (
    <div className="app">
      <TopBar session={session} onSwitchUser={switchUser} />
      <main className="content" id="main">
        {main}
      </main>
      <StatusBar status={status} session={session} />
      {helpOpen && <HelpOverlay />}
    </div>
  );
}

import type { Session } from '../../../shared/ipc/contract';
import { ROLE_LABEL } from '../auth/role-label';
import { mayOpen, SCREENS } from './screen-registry';
import { useNavStore } from './nav-store';
import { useThemeStore } from './theme-store';
import { focusScreen } from './focus-screen';

export function TopBar({ session, onSwitchUser }: { session: Session | null; onSwitchUser(): void }) {
  const { screen, go, setHelp } = useNavStore();
  const { theme, toggle } = useThemeStore();
  return (
    <header className="top-bar">
      <span className="brand">
        <img src="./icon.svg" alt="" width={32} height={32} /> Ringup
      </span>
      <nav aria-label="Screens" className="tabs">
        {SCREENS.filter((t) => t.group === 'tab' && mayOpen(t, session?.user.role ?? null)).map((t) => (
          <button
            key={t.id}
            type="button"
            className="tab"
            aria-current={screen === t.id ? 'page' : undefined}
            aria-keyshortcuts={t.key}
            onClick={() => {
              go(t.id);
              focusScreen();
            }}
          >
            {t.label} {t.key && <kbd aria-hidden="true">{t.key}</kbd>}
          </button>
        ))}
        {!session && screen === 'system' && (
          <button type="button" className="tab" onClick={() => go('sale')}>
            Sign in
          </button>
        )}
      </nav>
      <div className="top-actions">
        <button type="button" className="btn btn-quiet" onClick={toggle} aria-keyshortcuts="F9" aria-label={theme === 'dark' ? 'Use the light theme' : 'Use the dark theme'}>
          <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span> <span className="top-btn-label">{theme === 'dark' ? 'Light' : 'Dark'}</span>
        </button>
        <button type="button" className="btn btn-quiet" onClick={() => setHelp(true)} aria-keyshortcuts="F1">
          <span aria-hidden="true">?</span> <span className="top-btn-label">Help</span>
        </button>
        {session && (
          <div className="user-chip">
            <span className="avatar" aria-hidden="true">
              {session.user.name.charAt(0)}
            </span>
            <span className="user-chip-text">
              <strong>{session.user.name}</strong>
              <span className="muted">{ROLE_LABEL[session.user.role]}</span>
            </span>
            <button type="button" className="btn btn-secondary" onClick={onSwitchUser} aria-keyshortcuts="F8">
              Switch user
            </button>
          </div>
        )}
      </div>
    </header>
  );
}

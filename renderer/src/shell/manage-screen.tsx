/** The Manage hub: one large tile per back-office screen the signed-in role may open. */
import { focusScreen } from './focus-screen';
import { useNavStore } from './nav-store';
import { useSessionStore } from '../auth/session-store';
import { mayOpen, SCREENS } from './screen-registry';

export function ManageScreen() {
  const go = useNavStore((s) => s.go);
  const role = useSessionStore((s) => s.session?.user.role ?? null);
  const tiles = SCREENS.filter((s) => s.group === 'manage' && mayOpen(s, role));
  return (
    <section className="screen panel" aria-labelledby="manage-title">
      <h1 id="manage-title" tabIndex={-1} data-screen-focus>
        Manage
      </h1>
      {tiles.length === 0 ? (
        <p className="muted">Nothing to manage here yet for your role.</p>
      ) : (
        <ul className="manage-tiles">
          {tiles.map((t) => (
            <li key={t.id}>
              <button
                type="button"
                className="manage-tile"
                onClick={() => {
                  go(t.id);
                  focusScreen();
                }}
              >
                <strong>{t.label}</strong>
                {t.description && <span className="muted">{t.description}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

import { useEffect, useRef } from 'react';
import { SHORTCUTS, type Shortcut } from './shortcuts';
import { screenShortcuts } from './screen-registry';
import { useFocusTrap } from '../ui/use-focus-trap';
import { useNavStore } from './nav-store';

/** F1 … F9 in order, then the other keys as declared (a stable sort keeps their order). */
const fKeyOrder = (s: Shortcut) => (/^F\d+$/.test(s.keys[0]!) ? Number(s.keys[0]!.slice(1)) : Number.POSITIVE_INFINITY);

/** Every key: the screens' function keys (with who may use them) and every other shortcut. */
export function HelpOverlay() {
  const shortcuts = [...screenShortcuts(), ...SHORTCUTS].sort((a, b) => fKeyOrder(a) - fKeyOrder(b));
  const setHelp = useNavStore((s) => s.setHelp);
  const closeRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  useFocusTrap(dialogRef);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    return () => previous?.focus?.();
  }, []);
  const groups = [...new Set(shortcuts.map((s) => s.where))];
  return (
    <div className="overlay" onClick={() => setHelp(false)}>
      <div ref={dialogRef} className="dialog dialog-wide" role="dialog" aria-modal="true" aria-labelledby="help-title" onClick={(e) => e.stopPropagation()}>
        <div className="dialog-head">
          <h2 id="help-title">Keyboard shortcuts</h2>
          <button ref={closeRef} type="button" className="btn btn-quiet" onClick={() => setHelp(false)}>
            Close <kbd>Esc</kbd>
          </button>
        </div>
        <div className="help-grid">
          {groups.map((g) => (
            <section key={g} aria-label={g}>
              <h3>{g}</h3>
              <dl className="shortcut-list">
                {shortcuts.filter((s) => s.where === g).map((s) => (
                  <div key={s.action}>
                    <dt>
                      {s.keys.map((k, i) => (
                        <span key={k}>
                          {i > 0 && <span className="muted"> or </span>}
                          <kbd>{k}</kbd>
                        </span>
                      ))}
                    </dt>
                    <dd>{s.action}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
        <p className="muted help-foot">Everything also works by touch: every button is large enough for a finger.</p>
      </div>
    </div>
  );
}

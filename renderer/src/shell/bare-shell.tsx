import type { ReactNode } from 'react';

/** The window before the app proper: the brand alone in the top bar, one centred panel below (first run, not connected). */
export function BareShell({ children }: { children: ReactNode }) {
  return (
    <div className="app">
      <header className="top-bar">
        <span className="brand">
          <img src="./icon.svg" alt="" width={32} height={32} /> Ringup
        </span>
      </header>
      <main className="content content-center">{children}</main>
    </div>
  );
}

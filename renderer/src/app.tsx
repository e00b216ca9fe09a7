import { useEffect } from 'react';
import { StatusBar } from './components/status-bar';
import { SystemScreen } from './screens/system-screen';
import { useStatusStore } from './stores/status-store';

export function App() {
  const status = useStatusStore((s) => s.status);
  const load = useStatusStore((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div className="app">
      <header className="top-bar">
        <span className="brand">
          <img src="./icon.svg" alt="" width={28} height={28} /> Ringup
        </span>
      </header>
      <main className="content">
        <SystemScreen />
      </main>
      <StatusBar status={status} />
    </div>
  );
}

/**
 * Devices (installer and manager roles): the location's EMV terminals and check scanners, and
 * this register's receipt printers and serial barcode scanners, each opened in its editor;
 * register new ones, test them, send device terms.
 */
import { useEffect } from 'react';
import { BarcodeScannerEditor } from './barcode-scanner-editor';
import { BarcodeScannerList } from './barcode-scanner-list';
import { useBarcodeScannersStore } from './barcode-scanners-store';
import { ScannerEditor } from './scanner-editor';
import { PrinterEditor } from './printer-editor';
import { usePrinterStatusStore } from './printer-status-store';
import { TerminalEditor } from './terminal-editor';
import { useInstallerStore } from './installer-store';
import { useTerminalStore } from './terminal-store';

export function InstallerScreen() {
  const barcodeScanners = useBarcodeScannersStore((b) => b.scanners);
  const loadBarcodeScanners = useBarcodeScannersStore((b) => b.load);
  const { data, printers, error, selection, load, select } = useInstallerStore();
  useEffect(() => {
    void load();
  }, [load]);
  const saved = (kind: 'terminal' | 'scanner' | 'printer') => (id: string) => {
    select({ kind, id });
    void load();
    void useTerminalStore.getState().load();
    if (kind === 'printer') void usePrinterStatusStore.getState().load();
  };

  return (
    <div className="installer-layout">
      <nav className="panel device-list" aria-labelledby="devices-title">
        <h1 id="devices-title" className="section-title" tabIndex={-1} data-screen-focus>
          Devices
        </h1>
        {error && <p className="notice notice-error" role="alert">{error}</p>}
        <h2 className="device-group">Terminals</h2>
        <ul className="device-items">
          {data?.terminals.map((t) => (
            <li key={t.id}>
              <button type="button" className="device-item" aria-current={selection.kind === 'terminal' && selection.id === t.id ? 'true' : undefined} onClick={() => select({ kind: 'terminal', id: t.id })}>
                <strong>{t.title || t.serialNumber}</strong>
                <span className="muted mono">{t.address.kind === 'serial' ? t.address.path : t.address.host ? `${t.address.host}:${t.address.port}${t.address.tls ? ' · TLS' : ''}` : 'no address yet'}</span>
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="btn btn-secondary btn-block" onClick={() => select({ kind: 'terminal', id: null })} data-testid="add-terminal">
          + Register a terminal
        </button>
        <h2 className="device-group">Check scanners</h2>
        <ul className="device-items">
          {data?.scanners.map((s) => (
            <li key={s.id}>
              <button type="button" className="device-item" aria-current={selection.kind === 'scanner' && selection.id === s.id ? 'true' : undefined} onClick={() => select({ kind: 'scanner', id: s.id })}>
                <strong>{s.title}</strong>
                <span className="muted mono">{s.path || 'no serial path'}</span>
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="btn btn-secondary btn-block" onClick={() => select({ kind: 'scanner', id: null })} data-testid="add-scanner">
          + Add a check scanner
        </button>
        <BarcodeScannerList selection={selection} select={select} />
        <h2 className="device-group">Receipt printers</h2>
        <ul className="device-items">
          {printers.map((p) => (
            <li key={p.id}>
              <button type="button" className="device-item" aria-current={selection.kind === 'printer' && selection.id === p.id ? 'true' : undefined} onClick={() => select({ kind: 'printer', id: p.id })}>
                <strong>{p.name}{p.active ? '' : ' (not in use)'}</strong>
                <span className="muted mono">{p.address.kind === 'tcp' ? `${p.address.host}:${p.address.port}` : p.address.path} · {p.paper === '80mm' ? '80' : '58'} mm</span>
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="btn btn-secondary btn-block" onClick={() => select({ kind: 'printer', id: null })} data-testid="add-printer">
          + Add a printer
        </button>
      </nav>
      <section className="panel device-editor" aria-label="Device settings">
        {!data ? (
          <p className="muted">Loading the devices…</p>
        ) : selection.kind === 'barcode' ? (
          <BarcodeScannerEditor
            scanner={barcodeScanners?.find((b) => b.id === selection.id)}
            onSaved={(id) => {
              select({ kind: 'barcode', id });
              void loadBarcodeScanners();
            }}
            onRemoved={() => {
              select({ kind: 'barcode', id: null });
              void loadBarcodeScanners();
            }}
            onLookAgain={() => void loadBarcodeScanners()}
          />
        ) : selection.kind === 'printer' ? (
          <PrinterEditor
            printer={printers.find((p) => p.id === selection.id)}
            onSaved={saved('printer')}
            onRemoved={() => {
              select({ kind: 'printer', id: null });
              void load();
              void usePrinterStatusStore.getState().load();
            }}
          />
        ) : selection.kind === 'terminal' ? (
          <TerminalEditor terminal={data.terminals.find((t) => t.id === selection.id)} data={data} onSaved={saved('terminal')} />
        ) : (
          <ScannerEditor scanner={data.scanners.find((s) => s.id === selection.id)} data={data} onSaved={saved('scanner')} />
        )}
      </section>
    </div>
  );
}

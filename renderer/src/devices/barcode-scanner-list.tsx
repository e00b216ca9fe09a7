/** The Devices list's group of serial barcode scanners (issue 23, point 5): each opens its editor; one more is added below. */
import { useEffect } from 'react';
import { barcodeStateWords, useBarcodeScannersStore } from './barcode-scanners-store';
import type { Selection } from './installer-store';

export function BarcodeScannerList({ selection, select }: { selection: Selection; select(s: Selection): void }) {
  const { scanners, error, load } = useBarcodeScannersStore();
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <>
      <h2 className="device-group">Barcode scanners</h2>
      {error && <p className="notice notice-error" role="alert">{error}</p>}
      <ul className="device-items">
        {scanners?.map((s) => (
          <li key={s.id}>
            <button type="button" className="device-item" aria-current={selection.kind === 'barcode' && selection.id === s.id ? 'true' : undefined} onClick={() => select({ kind: 'barcode', id: s.id })}>
              <strong>{s.name}</strong>
              <span className="muted mono">{s.path}</span>
              <span className="muted">{barcodeStateWords(s)}</span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-secondary btn-block" onClick={() => select({ kind: 'barcode', id: null })} data-testid="add-barcode-scanner">
        + Add a barcode scanner
      </button>
    </>
  );
}

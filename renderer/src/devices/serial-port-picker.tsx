/**
 * The serial ports the system lists (serialport's list, through the core), offered under a
 * Serial path field: one press puts a port's path in the field. The field itself stays free
 * text, for what the system does not list (a serial bridge, a port it cannot name).
 */
import { useCallback, useEffect, useState } from 'react';
import type { SerialPortChoice } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

export function SerialPortPicker({ value, onPick }: { value: string; onPick(path: string): void }) {
  const [ports, setPorts] = useState<SerialPortChoice[] | null>(null);
  const look = useCallback(async () => {
    const r = await ringup.devicesSerialPorts();
    setPorts(r.ok ? r.value : []);
  }, []);
  useEffect(() => {
    void look();
  }, [look]);

  if (ports === null) return <p className="muted field-hint">Looking for serial ports…</p>;
  return (
    <div className="serial-ports">
      <span className="muted field-hint">{ports.length ? 'On this computer:' : 'No serial port found on this computer: type the path.'}</span>
      {ports.length > 0 && (
        <div className="serial-port-list" role="group" aria-label="Serial ports on this computer">
          {ports.map((p) => (
            <button key={p.path} type="button" className="btn btn-secondary mono" aria-pressed={value.trim() === p.path} onClick={() => onPick(p.path)}>
              {p.maker ? `${p.path} (${p.maker})` : p.path}
            </button>
          ))}
        </div>
      )}
      <button type="button" className="btn btn-quiet" onClick={() => void look()}>
        Look again
      </button>
    </div>
  );
}

/**
 * A serial barcode scanner on the sale screen (issue 23, point 5): the core listens to the
 * registered scanners and pushes each read (`barcode:scanned`, `barcode:refused`); this hook
 * hands them to the sale screen's one handling of a scan (scanned-code.ts), for as long as the
 * screen is mounted. No other screen subscribes, so a code scanned elsewhere is not added.
 */
import { useEffect, useRef } from 'react';
import { ringup } from '../bridge/bridge';

export function useSerialScanner({ onScan, onRefused }: { onScan(code: string): void; onRefused(message: string): void }): void {
  // The latest callbacks, without re-subscribing on every render.
  const latest = useRef({ onScan, onRefused });
  useEffect(() => {
    latest.current = { onScan, onRefused };
  }, [onScan, onRefused]);
  useEffect(() => {
    const offScan = ringup.on('barcode:scanned', ({ code }) => latest.current.onScan(code));
    const offRefused = ringup.on('barcode:refused', ({ message }) => latest.current.onRefused(message));
    return () => {
      offScan();
      offRefused();
    };
  }, []);
}

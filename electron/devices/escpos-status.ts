/**
 * ESC/POS real-time status (Epson's command set, followed by most thermal printers; facts in
 * GATEWAY-FACTS.md "Receipt printers and cash drawers"): the driver asks with DLE EOT n and the
 * printer answers one byte at once, even while its buffer is full or it is offline. Declared
 * once here for the driver (printer-driver.ts) and the simulator (sim/printer-simulator.ts).
 *
 * Every DLE EOT answer has bits 1 and 4 set and bits 0 and 7 clear (STATUS_FIXED). The answer
 * to GS r 1 (which receiptline sends at the end of each receipt) has bit 4 clear, so a reader
 * tells the two apart by that bit alone and drops the GS r byte.
 */

export const DLE = 0x10;
export const EOT = 0x04;

/** DLE EOT n: which status is asked. */
export const STATUS_REQUEST = { printer: 1, offlineCause: 2, paperSensor: 4 } as const;
export type StatusRequest = (typeof STATUS_REQUEST)[keyof typeof STATUS_REQUEST];

export const STATUS_FIXED = 0x12;
export const STATUS_FIXED_MASK = 0x93;

/** DLE EOT 1 (printer): bit 2 the drawer kick-out connector's pin 3 level, bit 3 offline. */
export const PRINTER_BITS = { drawerPin3High: 0x04, offline: 0x08 } as const;
/** DLE EOT 2 (offline cause): cover open, paper fed by the button, stopped at paper end, error. */
export const OFFLINE_BITS = { coverOpen: 0x04, feedButton: 0x08, paperEndStop: 0x20, error: 0x40 } as const;
/** DLE EOT 4 (roll paper sensor): bits 2-3 near end, bits 5-6 end. */
export const PAPER_BITS = { nearEnd: 0x0c, end: 0x60 } as const;

export function statusRequest(n: StatusRequest): Uint8Array {
  return Uint8Array.of(DLE, EOT, n);
}

/** True for a byte shaped like a DLE EOT answer (not a GS r or ASB byte). */
export function isStatusAnswer(byte: number): boolean {
  return (byte & STATUS_FIXED_MASK) === STATUS_FIXED;
}

/** GS r 1 (paper sensor status, sent in order after the data before it): the same paper bits, bit 4 clear. */
export const GS_R_PAPER = { nearEnd: 0x03, end: 0x0c } as const;

/** ESC p m t1 t2: a pulse on pin 2 (m = 0) or pin 5 (m = 1), on t1 × 2 ms, off t2 × 2 ms. */
export function drawerKick(pin: 2 | 5 = 2, onMs = 100, offMs = 500): Uint8Array {
  const units = (ms: number) => Math.max(1, Math.min(255, Math.round(ms / 2)));
  return Uint8Array.of(0x1b, 0x70, pin === 2 ? 0 : 1, units(onMs), units(offMs));
}

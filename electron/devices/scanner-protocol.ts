/**
 * The serial check scanner's line protocol (ASCII, one command or answer per CR-terminated
 * line). Simplification: real scanners (Panini, Digital Check, RDM) each have their own
 * binary SDK; Ringup drives a serial MICR reader in its plain-text mode:
 *   host → `ID`                 scanner → `ID <model> <serial>`
 *   host → `CFG T=<c> O=<c>`    scanner → `OK` (letters it will use for transit / on-us)
 *   host → `SCAN`               scanner → `MICR <line>` once a check passes, or `NOCHECK`
 */
export const SCANNER_CMD = { id: 'ID', configure: 'CFG', scan: 'SCAN' } as const;
export const SCANNER_ANSWER = { id: 'ID', ok: 'OK', micr: 'MICR', noCheck: 'NOCHECK', error: 'ERR' } as const;
export const LINE_END = '\r';

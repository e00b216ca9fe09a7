/**
 * The sandbox's built-in mock terminal. The interface family's sandbox drives a mock terminal
 * for every integrator, so its router samples work before any hardware arrives; this engine's
 * sandbox does the same: a terminal whose `communication_type` is `mock` (the seeded "Demo
 * Terminal" is one) and that has no address is played by a terminal simulator inside the
 * engine, over an in-memory pipe (devices/memory-link.ts). The driver talks to it exactly as
 * to a terminal on a socket, so everything after the wire — timeouts, cancel, the amount
 * check, the processor's decision — is the same code.
 *
 * It follows the mock-terminal amounts (GATEWAY-FACTS, devices/sim/mock-amounts.ts): 5.01
 * connect error, 5.31 timeout, 5.99 aborted, 7.10–7.21 entry modes and CVMs, 7.50–7.57 brands,
 * 7.70–7.76 the named timeouts, 8.xx a delay of xx seconds; anything else is a chip read with
 * no CVM. Its customer presents the card, chooses no tip, enters the PIN and signs.
 * Simplifications: the card brand is Visa unless the amount names one (the family's is
 * random); device terms on it keep the engine's simulated customer (merchant/device-terms.ts,
 * `#decline`), as on any terminal without an address.
 *
 * A terminal with an address is driven at that address whatever its communication_type (the
 * counter uses only such terminals), and a production-mode engine has no mock terminal: there a
 * `mock` terminal answers like any terminal without an address.
 */
import { memoryLinkPair } from '../../devices/memory-link';
import type { DeviceLink } from '../../devices/device-link';
import { DEFAULT_SCRIPT, TerminalSimulator } from '../../devices/sim/terminal-simulator';
import type { Row } from '../framework/resource';
import { MOCK_COMMUNICATION_TYPE } from '../merchant/terminals';

export class MockTerminals {
  /** One simulated device per terminal record: it remembers its sales (void, adjust) and is busy while it works. */
  private readonly devices = new Map<string, TerminalSimulator>();

  constructor(private readonly secondMs: number | undefined) {}

  /** True when this terminal record is played by the built-in mock (no address of its own). */
  static plays(t: Row): boolean {
    return t.communication_type === MOCK_COMMUNICATION_TYPE;
  }

  /** Opens a link to the terminal's mock device. */
  connect(t: Row): Promise<DeviceLink> {
    const id = String(t.id);
    let device = this.devices.get(id);
    if (!device) {
      device = new TerminalSimulator({ secondMs: this.secondMs, serialNumber: String(t.serial_number ?? 'MOCK') });
      // Its customer takes 40 ms a step at real time, scaled with the terminal second like its timeouts.
      device.script = { ...DEFAULT_SCRIPT, stepMs: Math.max(1, Math.round(0.04 * (this.secondMs ?? 1000))) };
      this.devices.set(id, device);
    }
    const [engineEnd, deviceEnd] = memoryLinkPair();
    device.serve(deviceEnd);
    return Promise.resolve(engineEnd);
  }

  async close(): Promise<void> {
    await Promise.all([...this.devices.values()].map((d) => d.close()));
    this.devices.clear();
  }
}

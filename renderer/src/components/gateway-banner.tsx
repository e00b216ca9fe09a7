import type { CoreStatus } from '../../../shared/ipc/contract';
import { money } from '../lib/money-format';
import { useSettingsStore } from '../stores/settings-store';
import { useTerminalStore } from '../stores/terminal-store';

export const GATEWAY_BANNER = {
  unreachable: 'The payment gateway cannot be reached. Cards cannot be charged until it answers again; this message goes away by itself.',
  refused: 'The payment gateway refuses Ringup’s credentials. Cards cannot be charged. Ask a manager to check the gateway settings (API key).',
} as const;

/**
 * Issue 13: what the counter still takes while the gateway is away — card sales on a
 * terminal that answers (by default), keyed cards when the store allows; null: nothing.
 */
export function offlineBannerText(capCents: number, terminal: boolean, keyed: boolean): string | null {
  const cap = money(capCents);
  if (terminal && keyed) return `The payment gateway cannot be reached. Card sales up to ${cap}, on the terminal or keyed, are approved offline and sent by themselves when it answers again.`;
  if (terminal) return `The payment gateway cannot be reached. Card sales on the terminal up to ${cap} are approved offline and sent by themselves when it answers again; keyed cards are not.`;
  if (keyed) return `The payment gateway cannot be reached. Keyed card sales up to ${cap} are approved offline and sent by themselves when it answers again.`;
  return null;
}

/**
 * Gateway trouble, on every screen, the moment the core's health probe sees it (the
 * core pushes `core:status` on every change); it clears by itself when the gateway
 * answers again. A refused key is named as such, not as "unreachable".
 */
export function GatewayBanner({ status }: { status: CoreStatus | null }) {
  const health = status?.gateway.health;
  const settings = useSettingsStore((s) => s.settings);
  const connection = useTerminalStore((s) => s.status?.connection);
  if (health !== 'unreachable' && health !== 'refused') return null;
  // Issue 13: the counter keeps selling into the offline queue.
  const terminalUp = connection === 'connected' || connection === 'busy';
  const offline = health === 'unreachable' && settings ? offlineBannerText(settings.offlinePaymentCapCents, terminalUp, settings.offlineAllowKeyed) : null;
  const text = offline ?? GATEWAY_BANNER[health];
  return (
    <div className="gateway-banner" role="alert" data-testid="gateway-banner">
      <span className="gateway-banner-icon" aria-hidden="true">
        !
      </span>
      {text}
    </div>
  );
}

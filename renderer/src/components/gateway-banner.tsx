import type { CoreStatus } from '../../../shared/ipc/contract';
import { money } from '../lib/money-format';
import { useSettingsStore } from '../stores/settings-store';

export const GATEWAY_BANNER = {
  unreachable: 'The payment gateway cannot be reached. Cards cannot be charged until it answers again; this message goes away by itself.',
  refused: 'The payment gateway refuses Ringup’s credentials. Cards cannot be charged. Ask a manager to check the gateway settings (API key).',
} as const;

export const offlineBannerText = (capCents: number) =>
  `The payment gateway cannot be reached. Keyed card sales up to ${money(capCents)} are approved offline and sent by themselves when it answers again.`;

/**
 * Gateway trouble, on every screen, the moment the core's health probe sees it (the
 * core pushes `core:status` on every change); it clears by itself when the gateway
 * answers again. A refused key is named as such, not as "unreachable".
 */
export function GatewayBanner({ status }: { status: CoreStatus | null }) {
  const health = status?.gateway.health;
  const settings = useSettingsStore((s) => s.settings);
  if (health !== 'unreachable' && health !== 'refused') return null;
  // Issue 13: with keyed sales allowed offline, the counter keeps selling into the offline queue.
  const text = health === 'unreachable' && settings?.offlineAllowKeyed ? offlineBannerText(settings.offlinePaymentCapCents) : GATEWAY_BANNER[health];
  return (
    <div className="gateway-banner" role="alert" data-testid="gateway-banner">
      <span className="gateway-banner-icon" aria-hidden="true">
        !
      </span>
      {text}
    </div>
  );
}

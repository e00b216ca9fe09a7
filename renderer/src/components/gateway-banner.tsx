import type { CoreStatus } from '../../../shared/ipc/contract';

export const GATEWAY_BANNER = {
  unreachable: 'The payment gateway cannot be reached. Cards cannot be charged until it answers again; this message goes away by itself.',
  refused: 'The payment gateway refuses Ringup’s credentials. Cards cannot be charged. Ask a manager to check the gateway settings (API key).',
} as const;

/**
 * Gateway trouble, on every screen, the moment the core's health probe sees it (the
 * core pushes `core:status` on every change); it clears by itself when the gateway
 * answers again. A refused key is named as such, not as "unreachable".
 */
export function GatewayBanner({ status }: { status: CoreStatus | null }) {
  const health = status?.gateway.health;
  if (health !== 'unreachable' && health !== 'refused') return null;
  return (
    <div className="gateway-banner" role="alert" data-testid="gateway-banner">
      <span className="gateway-banner-icon" aria-hidden="true">
        !
      </span>
      {GATEWAY_BANNER[health]}
    </div>
  );
}

import type { CoreStatus, GatewayAuthMethod } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';
import { useSettingsStore } from '../settings/settings-store';
import { useTerminalStore } from '../devices/terminal-store';

export const GATEWAY_BANNER = {
  unreachable: 'The payment gateway cannot be reached. Cards cannot be charged until it answers again; this message goes away by itself.',
  /** A refusal, worded by how this run signs in. */
  refused: {
    'api-key': 'The payment gateway refuses Ringup’s credentials (user id and API key). Cards cannot be charged. Ask a manager to check the gateway settings.',
    oauth: 'The payment gateway refuses this counter’s OAuth sign-in. Cards cannot be charged. Ask a manager to sign in again on the Gateway screen.',
    'engine-keys': 'The embedded engine refuses Ringup’s own keys. Cards cannot be charged. Ask a manager to look at the Gateway screen.',
  } satisfies Record<GatewayAuthMethod, string>,
  signedOut: 'This counter signed out of the payment gateway, so cards cannot be charged. Close Ringup and start it again: it then uses the embedded engine.',
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
 * answers again. A refusal is named as such, not as "unreachable", in the words of how the
 * counter signs in (API key, OAuth, the engine's own keys), or as the sign-out it is. A
 * copied data folder's core reaches no gateway and says so: its sentence is the banner.
 */
export function GatewayBanner({ status }: { status: CoreStatus | null }) {
  const g = status?.gateway;
  const health = g?.health;
  const settings = useSettingsStore((s) => s.settings);
  const connection = useTerminalStore((s) => s.status?.connection);
  if (!g || (health !== 'unreachable' && health !== 'refused')) return null;
  let text: string;
  // A copied data folder (issue 20, point 8): the core's sentence, which says how to move a register.
  if (status.registerCopy) text = status.registerCopy;
  else if (health === 'refused') text = g.signedOut ? GATEWAY_BANNER.signedOut : GATEWAY_BANNER.refused[g.auth];
  else {
    // Issue 13: the counter keeps selling into the offline queue (on the terminal always, keyed cards when allowed).
    const terminalUp = connection === 'connected' || connection === 'busy';
    text = (settings ? offlineBannerText(settings.offlinePaymentCapCents, terminalUp, settings.offlineAllowKeyed) : null) ?? GATEWAY_BANNER.unreachable;
  }
  return (
    <div className="gateway-banner" role="alert" data-testid="gateway-banner">
      <span className="gateway-banner-icon" aria-hidden="true">
        !
      </span>
      {text}
    </div>
  );
}

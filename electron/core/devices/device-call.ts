/**
 * A device step's failure in one sentence: a device's own error (unreachable, timeout, a
 * refused answer) as `device_<code>`, a terminal problem the gateway reports (timeout,
 * customer abort, unreachable) as `terminal`, any other gateway refusal as the gateway's
 * words. Anything else is a bug and is thrown.
 */
import { fail, type Result } from '../../../shared/result';
import { GatewayError } from '../../client/gateway-client';
import { DeviceError } from '../../devices/device-messages';
import { gatewayFailure } from '../gateway/gateway-messages';

export function deviceFailure(e: unknown): Result<never> {
  if (e instanceof DeviceError) return fail(`device_${e.code}`, e.message);
  throw e;
}

export async function deviceCall<T>(fn: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof DeviceError) return deviceFailure(e);
    if (e instanceof GatewayError) {
      // A terminal problem the gateway reports (timeout, customer abort, unreachable) is one sentence.
      const term = e.errors.terminal_id?.[0];
      if (term) return fail('terminal', term);
      return gatewayFailure(e);
    }
    throw e;
  }
}

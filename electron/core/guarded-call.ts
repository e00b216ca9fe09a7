/**
 * The one wrapper of a handler that calls the gateway: the signed-in window's role is
 * checked first (a refusal is the handler's answer), then a GatewayError from the call
 * becomes its plain-word failure (gateway-messages.ts). Anything else is a bug and
 * throws, so the dispatcher reports it instead of a misleading sentence.
 */
import type { Result } from '../../shared/result';
import type { Role, Session } from '../../shared/ipc/contract';
import { GatewayError } from '../client/gateway-client';
import { gatewayFailure } from './gateway-messages';
import type { UserDirectory } from './users';

/** A gateway call whose GatewayError is answered as a failure Result. */
export async function withGatewayFailure<T>(fn: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await fn();
  } catch (err) {
    // By name too: a bundle may hold a second copy of the class (the engine child, tests).
    if (err instanceof GatewayError || (err instanceof Error && err.name === 'GatewayError')) return gatewayFailure(err);
    throw err;
  }
}

/** Checks the role (any signed-in user when undefined), then runs `fn` as a gateway call. */
export async function guardedCall<T>(users: UserDirectory, role: Role | undefined, fn: (session: Session) => Promise<Result<T>>): Promise<Result<T>> {
  const s = users.require(role);
  if (!s.ok) return s;
  return withGatewayFailure(() => fn(s.value));
}

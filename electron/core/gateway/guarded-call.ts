/**
 * The one wrapper of a handler that calls the gateway: a GatewayError from the call becomes
 * its plain-word failure (gateway-messages.ts), and a list too long to total
 * (TooManyRecordsError) says so. Anything else is a bug and throws, so the dispatcher
 * reports it instead of a misleading sentence. (Who may call is checked before, by the
 * channel rules: electron/ipc/channel-rules.ts.)
 */
import { fail, type Result } from '../../../shared/result';
import { GatewayError, TooManyRecordsError } from '../../client/gateway-client';
import { gatewayFailure } from './gateway-messages';

export const TOO_MANY_RECORDS = (max: number) =>
  `These totals would take more than ${max.toLocaleString('en-US')} transactions, more than Ringup adds up at once, so none are shown rather than wrong ones. Read them from the gateway's own reports.`;

/** A gateway call whose GatewayError (or a list too long to total) is answered as a failure Result. */
export async function withGatewayFailure<T>(fn: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await fn();
  } catch (err) {
    // By name too: a bundle may hold a second copy of the class (the engine child, tests).
    if (err instanceof GatewayError || (err instanceof Error && err.name === 'GatewayError')) return gatewayFailure(err);
    if (err instanceof TooManyRecordsError) return fail('too_many_records', TOO_MANY_RECORDS(err.max));
    throw err;
  }
}

/** `force`: records a sale the issuer approved by voice (its 6-character auth_code); the processor is not asked. */
import { REASON, STATUS, TYPE } from '../processor-simulator';
import type { PostActionStep } from './post-action';

export const forceAction: PostActionStep = {
  methods: ['cc'],
  // The table requires a 6-character auth_code for a force.
  authCodeOf: (f) => (f.auth_code as string | undefined) ?? null,
  issuesAuthCode: false,
  keepsAccount: true,
  process: (req) => ({
    statusId: STATUS.approved, typeId: TYPE.sale, reasonCodeId: REASON.forced, verbiage: 'APPROVED', approved: true,
    // The sandbox amount whose batch fails its first settle (GATEWAY-FACTS).
    authAmountCents: req.amountCents, avs: null, cvvResponse: null, delayMs: 0, failsFirstSettle: req.amountCents === 630,
  }),
};

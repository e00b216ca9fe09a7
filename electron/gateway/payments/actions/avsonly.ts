/** `avsonly`: checks the card's address and CVV; moves no money (amount 0.00 unless sent). */
import { askIssuer, type PostActionStep } from './post-action';

export const avsonlyAction: PostActionStep = { methods: ['cc'], defaultAmount: () => 0, zeroAmount: true, issuesAuthCode: false, keepsAccount: true, process: askIssuer('avsonly') };

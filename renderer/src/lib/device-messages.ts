/** Sentences of the device screens that tests assert. */
/** The engine's all-or-none rule for tip percents, said the installer's way. */
export const TIP_BLANK = 'Fill in all three percents (0 to 99), or turn tips off.';

/**
 * The customer display's line details (display-cart.ts): a line named by its size ("Latte Large",
 * as the counter names it since the catalogue's variants) does not say the size again under it;
 * the modifiers follow, each with its price. Seen in the café morning's display screenshots.
 */
import { describe, expect, it } from 'vitest';
import { choiceDetails } from '../../electron/core/display/display-cart';
import type { LineChoice } from '../../shared/ipc/contract';

const large: LineChoice = {
  variantId: 'v-large',
  variantName: 'Large',
  modifiers: [
    { optionId: 'o-oat', groupName: 'Milk', name: 'Oat', priceCents: 60 },
    { optionId: 'o-shot', groupName: 'Extras', name: 'Extra shot', priceCents: 50 },
  ],
};

describe('choiceDetails', () => {
  it('leaves the size out when the line is named by it, and lists the modifiers with their prices', () => {
    expect(choiceDetails(large, 'Latte Large')).toEqual([
      { name: 'Oat', priceCents: 60 },
      { name: 'Extra shot', priceCents: 50 },
    ]);
  });

  it('says the size when the line is not named by it (any case)', () => {
    expect(choiceDetails(large, 'Latte')).toEqual([{ name: 'Large', priceCents: 0 }, ...choiceDetails(large, 'Latte Large')]);
    expect(choiceDetails({ ...large, modifiers: [] }, 'LATTE LARGE')).toEqual([]);
  });

  it('a line without a choice has no details', () => {
    expect(choiceDetails(null, 'Muffin')).toEqual([]);
  });
});

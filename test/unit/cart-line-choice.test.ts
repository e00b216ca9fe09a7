/**
 * A line's choice (issue 23, point 6), the rules the picker shows and the core checks
 * (shared/cart/line-choice.ts): the price of a variant plus its options, each refusal in its
 * own sentence, the same choice making the same line whatever order it was tapped in, the
 * groups' rules in words, and the Level 3 description's cutting rule at its edges.
 */
import { describe, expect, it } from 'vitest';
import type { CatalogueItem, ModifierGroup } from '../../shared/ipc/catalogue';
import { CHOICE_COPY, choiceKey, groupRuleWords, level3Description, needsPicker, resolveChoice } from '../../shared/cart/line-choice';

const milk: ModifierGroup = {
  id: 'g-milk',
  name: 'Milk',
  minChoices: 1,
  maxChoices: 1,
  archived: false,
  options: [
    { id: 'o-whole', name: 'Whole', priceCents: 0 },
    { id: 'o-oat', name: 'Oat milk', priceCents: 60 },
  ],
};
const extras: ModifierGroup = {
  id: 'g-extras',
  name: 'Extras',
  minChoices: 0,
  maxChoices: 2,
  archived: false,
  options: [
    { id: 'o-shot', name: 'Extra shot', priceCents: 50 },
    { id: 'o-vanilla', name: 'Vanilla', priceCents: 40 },
    { id: 'o-cream', name: 'Cream', priceCents: 30 },
  ],
};
const old: ModifierGroup = { ...extras, id: 'g-old', name: 'Old', archived: true, options: [{ id: 'o-old', name: 'Old syrup', priceCents: 10 }] };
const groups = [milk, extras, old];

const item = (over: Partial<CatalogueItem> = {}): CatalogueItem => ({
  id: 'i-latte',
  name: 'Latte',
  priceCents: 380,
  sku: 'LATTE',
  productCode: '',
  unitCode: 'EA',
  commodityCode: '',
  taxCategory: 'standard',
  quickKey: true,
  categoryId: null,
  modifierGroupIds: ['g-milk', 'g-extras', 'g-old'],
  trackStock: false,
  reorderLevel: 0,
  archived: false,
  stock: null,
  variants: [
    { id: 'v-small', itemId: 'i-latte', name: 'Small', priceCents: 380, sku: 'LATTE-S', stock: null },
    { id: 'v-large', itemId: 'i-latte', name: 'Large', priceCents: 450, sku: '', stock: null },
  ],
  ...over,
});

describe('resolveChoice', () => {
  it('prices the variant plus its options, names the line after the variant, and takes the variant SKU as the product code', () => {
    const r = resolveChoice(item(), groups, { variantId: 'v-small', optionIds: ['o-shot', 'o-oat'] });
    expect(r).toEqual({
      ok: true,
      line: {
        name: 'Latte Small',
        unitCents: 380 + 60 + 50,
        productCode: 'LATTE-S',
        // Group order, then option order: Milk before Extras whatever was tapped first.
        choice: {
          variantId: 'v-small',
          variantName: 'Small',
          modifiers: [
            { optionId: 'o-oat', groupName: 'Milk', name: 'Oat milk', priceCents: 60 },
            { optionId: 'o-shot', groupName: 'Extras', name: 'Extra shot', priceCents: 50 },
          ],
        },
      },
    });
    // A variant without a SKU: the item's product code, else its SKU.
    const large = resolveChoice(item(), groups, { variantId: 'v-large', optionIds: ['o-whole'] });
    expect(large.ok && [large.line.name, large.line.unitCents, large.line.productCode]).toEqual(['Latte Large', 450, 'LATTE']);
  });

  it('makes the same line for the same choice in any order, and a different one for another choice', () => {
    const a = resolveChoice(item(), groups, { variantId: 'v-large', optionIds: ['o-vanilla', 'o-shot', 'o-whole'] });
    const b = resolveChoice(item(), groups, { variantId: 'v-large', optionIds: ['o-whole', 'o-shot', 'o-vanilla'] });
    const c = resolveChoice(item(), groups, { variantId: 'v-large', optionIds: ['o-whole', 'o-shot'] });
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (!a.ok || !b.ok || !c.ok) return;
    expect(choiceKey(a.line.choice)).toBe(choiceKey(b.line.choice));
    expect(choiceKey(a.line.choice)).not.toBe(choiceKey(c.line.choice));
  });

  it('refuses in words: no variant, a variant of another item, an option not offered (or archived), twice, too few, too many', () => {
    const cases: Array<[Parameters<typeof resolveChoice>[2], string]> = [
      [{ variantId: null, optionIds: ['o-whole'] }, CHOICE_COPY.chooseVariant('Latte', ['Small', 'Large'])],
      [{ variantId: 'v-other', optionIds: ['o-whole'] }, CHOICE_COPY.notVariant('Latte')],
      [{ variantId: 'v-small', optionIds: ['o-whole', 'o-nope'] }, CHOICE_COPY.notOffered('Latte')],
      [{ variantId: 'v-small', optionIds: ['o-whole', 'o-old'] }, CHOICE_COPY.notOffered('Latte')],
      [{ variantId: 'v-small', optionIds: ['o-whole', 'o-shot', 'o-shot'] }, CHOICE_COPY.twice('Extra shot')],
      [{ variantId: 'v-small', optionIds: ['o-shot'] }, CHOICE_COPY.tooFew('Milk', 1)],
      [{ variantId: 'v-small', optionIds: ['o-whole', 'o-oat'] }, CHOICE_COPY.tooMany('Milk', 1)],
      [{ variantId: 'v-small', optionIds: ['o-whole', 'o-shot', 'o-vanilla', 'o-cream'] }, CHOICE_COPY.tooMany('Extras', 2)],
    ];
    for (const [args, message] of cases) expect(resolveChoice(item(), groups, args)).toEqual({ ok: false, message });
    expect(CHOICE_COPY.chooseVariant('Latte', ['Small', 'Large'])).toBe('Choose Small or Large for Latte.');
    expect(CHOICE_COPY.tooFew('Milk', 1)).toBe('Milk: choose one.');
    // An item without variants refuses one; without groups, any option.
    const plain = item({ variants: [], modifierGroupIds: [] });
    expect(resolveChoice(plain, groups, { variantId: 'v-small', optionIds: [] })).toEqual({ ok: false, message: CHOICE_COPY.noVariants('Latte') });
    expect(resolveChoice(plain, groups, { variantId: null, optionIds: ['o-shot'] })).toEqual({ ok: false, message: CHOICE_COPY.notOffered('Latte') });
  });

  it('adds a plain item with no choice at all (it adds up with the lines of before), and an item with only optional groups with none chosen', () => {
    const plain = resolveChoice(item({ variants: [], modifierGroupIds: [] }), groups, { variantId: null, optionIds: [] });
    expect(plain).toEqual({ ok: true, line: { name: 'Latte', unitCents: 380, productCode: 'LATTE', choice: null } });
    const optional = resolveChoice(item({ variants: [], modifierGroupIds: ['g-extras'] }), groups, { variantId: null, optionIds: [] });
    expect(optional.ok && optional.line.choice).toBeNull();
    expect(needsPicker(item({ variants: [], modifierGroupIds: ['g-extras'] }))).toBe(true);
    expect(needsPicker(item({ variants: [], modifierGroupIds: [] }))).toBe(false);
  });
});

describe('groupRuleWords', () => {
  it('says the rule as the picker shows it', () => {
    expect(groupRuleWords({ minChoices: 1, maxChoices: 1 })).toBe('Choose 1');
    expect(groupRuleWords({ minChoices: 2, maxChoices: 2 })).toBe('Choose 2');
    expect(groupRuleWords({ minChoices: 0, maxChoices: 3 })).toBe('Up to 3');
    expect(groupRuleWords({ minChoices: 0, maxChoices: 1 })).toBe('Optional, choose 1');
    expect(groupRuleWords({ minChoices: 1, maxChoices: 3 })).toBe('Choose 1 to 3');
  });
});

describe('level3Description', () => {
  it('keeps the full words when they fit in 26 characters', () => {
    expect(level3Description('Latte Large', [{ name: 'Extra shot' }])).toBe('Latte Large +Extra shot');
    expect(level3Description('Latte Large', [])).toBe('Latte Large');
  });
  it('else cuts every modifier to the same length, spaces out, at least 3 characters', () => {
    const d = level3Description('Latte Large', [{ name: 'Extra shot' }, { name: 'Oat milk' }]);
    expect(d).toBe('Latte Large +Extra +Oatmi');
    expect(d.length).toBeLessThanOrEqual(26);
  });
  it('else cuts the whole at 26, the name first', () => {
    const d = level3Description('Flat white Large', [{ name: 'Extra shot' }, { name: 'Oat milk' }, { name: 'Vanilla' }]);
    expect(d).toBe('Flat white Large +Ext +Oat');
    const long = level3Description('A very long item name here Large', [{ name: 'Extra shot' }]);
    expect(long).toBe('A very long item name here');
    expect(long.length).toBe(26);
  });
});

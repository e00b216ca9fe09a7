/**
 * A cart line's choice (issue 23, point 6): the variant and the modifier options a counter
 * picks when it adds an item with variants or modifier groups. Declared once here and used on
 * both sides: the picker (renderer/src/cart/item-picker.tsx) shows the rules, the running price
 * and the sentence of a limit with these functions; the core (cart-lines.ts) checks the choice
 * it is sent with `resolveChoice` before it adds the line, so the screen and the core cannot
 * disagree about what is allowed or what it costs.
 *
 * Simplifications: an option is chosen at most once per line (two extra shots are a group
 * whose choices say so, e.g. "Double shot"); an archived group is not offered.
 */
import type { CatalogueItem, LineChoice, ModifierGroup } from '../ipc/catalogue';
import { dollars } from '../refund-limit';

export const CHOICE_COPY = {
  chooseVariant: (item: string, names: readonly string[]) => `Choose ${names.length === 2 ? `${names[0]} or ${names[1]}` : 'one of the sizes'} for ${item}.`,
  noVariants: (item: string) => `${item} has no sizes to choose from: add it without one.`,
  notVariant: (item: string) => `That size is not one of ${item}’s. Choose it again.`,
  notOffered: (item: string) => `That choice is not offered with ${item}. Choose again.`,
  twice: (name: string) => `${name} is chosen twice: choose it once.`,
  tooFew: (group: string, min: number) => `${group}: choose ${min === 1 ? 'one' : `at least ${min}`}.`,
  tooMany: (group: string, max: number) => `${group} takes at most ${max} ${max === 1 ? 'choice' : 'choices'}.`,
  /** The picker's sentence when a tap would go past a group's limit. */
  limitReached: (group: string, max: number) => `${group} takes at most ${max} ${max === 1 ? 'choice' : 'choices'}: take one off to choose another.`,
} as const;

/** A group's rule in words, as the picker shows it beside the group's name. */
export function groupRuleWords(g: Pick<ModifierGroup, 'minChoices' | 'maxChoices'>): string {
  if (g.minChoices === 0) return g.maxChoices === 1 ? 'Optional, choose 1' : `Up to ${g.maxChoices}`;
  if (g.minChoices === g.maxChoices) return `Choose ${g.minChoices}`;
  return `Choose ${g.minChoices} to ${g.maxChoices}`;
}

/** "+$0.50" for an option that adds money; "" for one that adds none. */
export const optionPriceWords = (cents: number): string => (cents > 0 ? `+${dollars(cents)}` : '');

/** Whether tapping this item needs the picker (it has sizes, or groups to choose from). */
export function needsPicker(item: Pick<CatalogueItem, 'variants' | 'modifierGroupIds'>): boolean {
  return item.variants.length > 0 || item.modifierGroupIds.length > 0;
}

/** The groups an item offers, in the item's order, active ones only. */
export function groupsOfItem(item: Pick<CatalogueItem, 'modifierGroupIds'>, groups: readonly ModifierGroup[]): ModifierGroup[] {
  const byId = new Map(groups.map((g) => [g.id, g]));
  return item.modifierGroupIds.map((id) => byId.get(id)).filter((g): g is ModifierGroup => g !== undefined && !g.archived);
}

export interface ResolvedLine {
  /** "Latte Large": the item's name, then the variant's. */
  name: string;
  /** The variant's price (or the item's) plus every option's. */
  unitCents: number;
  /** The variant's SKU when it has one, else the item's product code or SKU (Level 3's product code). */
  productCode: string;
  /** Null for an item added plainly (no variant, no option): such lines add up with each other. */
  choice: LineChoice | null;
}

export type ChoiceArgs = { variantId: string | null; optionIds: readonly string[] };

/**
 * Checks a choice against the item and the groups it offers and prices the line: the variant
 * belongs to the item (and is required when it has any), each option belongs to one of the
 * item's groups, each group's fewest and most choices are kept. The modifiers come out in the
 * item's group order, then the group's option order, whatever order they were tapped in, so
 * the same choice always makes the same line.
 */
export function resolveChoice(item: CatalogueItem, groups: readonly ModifierGroup[], args: ChoiceArgs): { ok: true; line: ResolvedLine } | { ok: false; message: string } {
  let variant: CatalogueItem['variants'][number] | null = null;
  if (args.variantId !== null) {
    if (item.variants.length === 0) return { ok: false, message: CHOICE_COPY.noVariants(item.name) };
    variant = item.variants.find((v) => v.id === args.variantId) ?? null;
    if (!variant) return { ok: false, message: CHOICE_COPY.notVariant(item.name) };
  } else if (item.variants.length > 0) {
    return { ok: false, message: CHOICE_COPY.chooseVariant(item.name, item.variants.map((v) => v.name)) };
  }
  const offered = groupsOfItem(item, groups);
  const chosen = new Set<string>();
  for (const id of args.optionIds) {
    if (chosen.has(id)) {
      const name = offered.flatMap((g) => g.options).find((o) => o.id === id)?.name ?? 'That choice';
      return { ok: false, message: CHOICE_COPY.twice(name) };
    }
    if (!offered.some((g) => g.options.some((o) => o.id === id))) return { ok: false, message: CHOICE_COPY.notOffered(item.name) };
    chosen.add(id);
  }
  const modifiers: LineChoice['modifiers'] = [];
  for (const g of offered) {
    const picked = g.options.filter((o) => chosen.has(o.id));
    if (picked.length < g.minChoices) return { ok: false, message: CHOICE_COPY.tooFew(g.name, g.minChoices) };
    if (picked.length > g.maxChoices) return { ok: false, message: CHOICE_COPY.tooMany(g.name, g.maxChoices) };
    for (const o of picked) modifiers.push({ optionId: o.id, groupName: g.name, name: o.name, priceCents: o.priceCents });
  }
  const unitCents = (variant ? variant.priceCents : item.priceCents) + modifiers.reduce((a, m) => a + m.priceCents, 0);
  return {
    ok: true,
    line: {
      name: variant ? `${item.name} ${variant.name}` : item.name,
      unitCents,
      productCode: variant?.sku || item.productCode || item.sku,
      choice: variant || modifiers.length > 0 ? { variantId: variant?.id ?? null, variantName: variant?.name ?? null, modifiers } : null,
    },
  };
}

/** The width of a Level 3 line item's description (the interface's limit). */
export const LEVEL3_DESCRIPTION_MAX = 26;
/** A modifier is never cut shorter than this in a Level 3 description: shorter stops being readable. */
const MIN_MODIFIER_CHARS = 3;

/**
 * A line's Level 3 description, at most 26 characters, by one stated rule:
 * 1. the line's name ("Latte Large") and each modifier as " +Name" ("Latte Large +Extra shot"), when that fits;
 * 2. else each modifier without its spaces, all cut to the same length, as long as fits and at
 *    least 3 characters ("Latte Large +Extra +Oatmi");
 * 3. else the rule-2 text at 3 characters each, cut at 26 (the name always comes first, so the
 *    item is still named).
 */
export function level3Description(name: string, modifiers: readonly { name: string }[]): string {
  const max = LEVEL3_DESCRIPTION_MAX;
  const full = [name, ...modifiers.map((m) => `+${m.name}`)].join(' ');
  if (full.length <= max) return full;
  const squeezed = modifiers.map((m) => m.name.replace(/\s+/g, ''));
  const room = max - name.length - 2 * squeezed.length; // " +" before each
  const each = Math.max(MIN_MODIFIER_CHARS, Math.floor(room / Math.max(1, squeezed.length)));
  return [name, ...squeezed.map((s) => `+${s.slice(0, each)}`)].join(' ').slice(0, max).trimEnd();
}

/** The key two lines share when their choice is the same (the same variant and the same options, in the canonical order). */
export function choiceKey(choice: LineChoice | null): string | null {
  return choice ? JSON.stringify(choice) : null;
}

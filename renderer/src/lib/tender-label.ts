/** How a cart tender is named on the cart panel and its receipt. */
export const tenderLabel = (kind: string): string => (kind === 'terminal' ? 'Card (terminal)' : kind === 'saved-card' ? 'Saved card' : 'Card');

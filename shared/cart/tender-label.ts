/** How a cart tender is named on the cart panel, its receipt and the list of cart sales. */
export const tenderLabel = (kind: string): string =>
  kind === 'cash' ? 'Cash' : kind === 'terminal' ? 'Card (terminal)' : kind === 'saved-card' ? 'Saved card' : 'Card';

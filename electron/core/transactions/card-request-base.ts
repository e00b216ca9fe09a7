/**
 * The fields every card sale and refund the counter sends starts with: the payment method, and
 * the location and merchant account sales run against (the gateway's defaults when absent).
 */
export interface CardRequestPlace {
  locationId: string | undefined;
  productTransactionId: string | undefined;
}

export function cardRequestBase(place: CardRequestPlace) {
  return {
    payment_method: 'cc' as const,
    ...(place.locationId ? { location_id: place.locationId } : {}),
    ...(place.productTransactionId ? { product_transaction_id: place.productTransactionId } : {}),
  };
}

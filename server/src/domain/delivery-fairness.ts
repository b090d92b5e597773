/**
 * Attempts one dispatcher has in flight for one merchant at most (a quarter of its slots). A merchant's slow or dead
 * endpoints hold no more than this, so the rest stay free for other merchants' deliveries (the send time-out stays).
 */
export const MAX_IN_FLIGHT_PER_MERCHANT = 64;

/** Each merchant's attempts in flight, and how many one merchant may have. */
export interface MerchantShare {
  perMerchant: number;
  inFlight: ReadonlyMap<string, number>;
}

/** Merchants that may start no attempt now: the next claim leaves their due deliveries where they are. */
export const merchantsAtShare = (share: MerchantShare): string[] =>
  [...share.inFlight].filter(([, n]) => n >= share.perMerchant).map(([merchantId]) => merchantId);

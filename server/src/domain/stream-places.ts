import { DomainError } from './errors.js';

/** How long a refused page is told to wait; its script polls the status meanwhile. */
const RETRY_AFTER_SECONDS = 30;

/** Open status streams per client address: a place is taken before a stream opens and given back when it ends. */
export function streamPlaces(perAddress: number) {
  const open = new Map<string, number>();
  return {
    /** Takes a place for `address` (the answer's Retry-After is set when there is none); returns its release, idempotent. */
    take(address: string, setRetryAfter: (seconds: number) => void): () => void {
      const taken = open.get(address) ?? 0;
      if (taken >= perAddress) {
        setRetryAfter(RETRY_AFTER_SECONDS);
        throw new DomainError('rate_limit_exceeded', `At most ${perAddress} status streams may be open from one address; close one, or poll the status.`);
      }
      open.set(address, taken + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (open.get(address) ?? 1) - 1;
        if (left === 0) open.delete(address);
        else open.set(address, left);
      };
    },
  };
}

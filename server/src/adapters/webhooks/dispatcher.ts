import { attemptDelivery, claimDueDeliveries, nextDeliveryDueAt } from '../../app/deliver-webhooks.js';
import type { Services } from '../../app/services.js';
import { MAX_IN_FLIGHT_PER_MERCHANT } from '../../domain/delivery-fairness.js';
import type { ClaimedDelivery, DeliveryWakeups } from '../../ports/webhook-delivery.js';

export interface DispatcherOptions {
  services: Services;
  /** Wakes the dispatcher as deliveries commit; without it, it relies on polling. */
  wakeups?: DeliveryWakeups;
  /** The longest the dispatcher sleeps without looking for due deliveries. */
  pollIntervalMs: number;
  /** Attempts in flight at once (each merchant's share is MAX_IN_FLIGHT_PER_MERCHANT of them). */
  maxInFlight?: number;
  onError?: (error: unknown) => void;
}

export interface RunningDispatcher {
  /** Stops claiming, and waits for the attempts in flight to be recorded. */
  stop(): Promise<void>;
}

const ERROR_BACKOFF_MS = 1_000;

/**
 * Outbox -> signed HTTP deliveries. Claims due deliveries into free slots, sends each outside any transaction, and
 * sleeps until a wake-up, the next scheduled retry, or the poll interval, whichever comes first. No merchant holds
 * more than its share of the slots, so three merchants whose every endpoint hangs still leave a quarter of them free.
 */
export function startWebhookDispatcher(options: DispatcherOptions): RunningDispatcher {
  const s = options.services;
  const maxInFlight = options.maxInFlight ?? 256;
  const report = options.onError ?? (() => undefined);
  const inFlight = new Set<Promise<void>>();
  const inFlightByMerchant = new Map<string, number>();
  const leftAtShare = new Set<string>(); // merchants whose due deliveries the last claims may have left where they were
  let stopped = false;
  let claiming: Promise<void> | null = null;
  let claimAgain = false; // woken while claiming
  let backlog = false; // the last claim filled every free slot, so more is probably due
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;

  const now = () => s.clock.now().getTime();

  function wakeAt(at: number): void {
    if (stopped || at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(
      () => {
        timerAt = Number.POSITIVE_INFINITY;
        kick();
      },
      Math.max(0, at - now()),
    );
  }

  function kick(): void {
    if (stopped) return;
    if (claiming) {
      claimAgain = true;
      return;
    }
    claiming = claimIntoFreeSlots().finally(() => {
      claiming = null;
      if (claimAgain) {
        claimAgain = false;
        kick();
      }
    });
  }

  function track(delivery: ClaimedDelivery): void {
    const merchant = delivery.merchantId;
    inFlightByMerchant.set(merchant, (inFlightByMerchant.get(merchant) ?? 0) + 1);
    const attempt: Promise<void> = attemptDelivery(s, delivery)
      .then((result) => {
        if (result.nextAttemptAt) wakeAt(result.nextAttemptAt.getTime());
      }, report)
      .finally(() => {
        inFlight.delete(attempt);
        const left = (inFlightByMerchant.get(merchant) ?? 1) - 1;
        if (left === 0) inFlightByMerchant.delete(merchant);
        else inFlightByMerchant.set(merchant, left);
        // As for all slots, a merchant at its share is claimed for in batches: once half its share is free again.
        const shareFree = left <= MAX_IN_FLIGHT_PER_MERCHANT / 2 && leftAtShare.delete(merchant);
        if ((backlog && inFlight.size <= maxInFlight / 2) || shareFree) kick();
      });
    inFlight.add(attempt);
  }

  async function claimIntoFreeSlots(): Promise<void> {
    const room = maxInFlight - inFlight.size;
    // With a backlog, claim in large batches: attempts finishing below half the slots kick again.
    if (room <= 0 || (backlog && room < maxInFlight / 2)) return;
    try {
      const claimed = await claimDueDeliveries(s, room, inFlightByMerchant);
      claimed.forEach(track);
      for (const [merchant, n] of inFlightByMerchant) if (n >= MAX_IN_FLIGHT_PER_MERCHANT) leftAtShare.add(merchant);
      backlog = claimed.length === room;
      if (backlog) return;
      const next = await nextDeliveryDueAt(s, inFlightByMerchant);
      wakeAt(Math.min(next?.getTime() ?? Number.POSITIVE_INFINITY, now() + options.pollIntervalMs));
    } catch (error) {
      report(error);
      wakeAt(now() + ERROR_BACKOFF_MS);
    }
  }

  const unsubscribing = (options.wakeups?.subscribe(kick) ?? Promise.resolve(async () => undefined)).catch((error: unknown) => {
    report(error);
    return async () => undefined;
  });
  kick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await (
        await unsubscribing
      )();
      await claiming;
      await Promise.all(inFlight);
    },
  };
}

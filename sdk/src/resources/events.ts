import type { RequestOptions, RequestSender } from '../http.js';
import { PageIterable, pageOf } from '../pagination.js';
import type { Event, EventListParams, components } from '../types.js';

export class Events {
  constructor(private readonly sender: RequestSender) {}

  /**
   * Every event of the last 30 days, newest first, each exactly as its webhook payload: how a receiver that
   * was down recovers what it missed (`for await` over `list({ start_date })`, dropping ids it already has).
   */
  list(params: EventListParams = {}, options?: RequestOptions): PageIterable<Event> {
    const { limit, offset, ...filters } = params;
    return new PageIterable(
      async (page) => {
        const body = await this.sender.request<components['schemas']['EventList']>({ method: 'GET', path: 'events', query: { ...filters, ...page }, options });
        return pageOf(body.events, body);
      },
      (event) => event.id,
      { limit, offset },
    );
  }

  /** One event (`evt_...`, the `webhook-id` of its deliveries), exactly as its webhook payload. */
  retrieve(eventId: string, options?: RequestOptions): Promise<Event> {
    return this.sender.request<Event>({ method: 'GET', path: `events/${encodeURIComponent(eventId)}`, options });
  }
}

import type { RequestOptions, RequestSender } from '../http.js';
import { PageIterable, pageOf } from '../pagination.js';
import type { CreateTillParams, Till, TillListParams, components } from '../types.js';

/** Tills: named points of sale, each with a customer display (`display_url`) and a static QR (`static_qr`). */
export class Tills {
  constructor(private readonly sender: RequestSender) {}

  /** Creates an active till (name 1 to 50 characters). At most 100 active tills: the 101st rejects with `till_limit_reached`. */
  create(params: CreateTillParams, options?: RequestOptions): Promise<Till> {
    return this.sender.request<Till>({ method: 'POST', path: 'tills', body: params, options });
  }

  /** Every till, active and closed, newest first; iterate with `for await` or read one page with `.page()`. */
  list(params: TillListParams = {}, options?: RequestOptions): PageIterable<Till> {
    return new PageIterable(
      async (page) => {
        const body = await this.sender.request<components['schemas']['TillList']>({ method: 'GET', path: 'tills', query: page, options });
        return pageOf(body.tills, body);
      },
      (till) => till.till_id,
      params,
    );
  }

  retrieve(tillId: string, options?: RequestOptions): Promise<Till> {
    return this.sender.request<Till>({ method: 'GET', path: `tills/${encodeURIComponent(tillId)}`, options });
  }

  /** Closes the till for good: its display and its static QR stop; QR codes can no longer name it. */
  close(tillId: string, options?: RequestOptions): Promise<Till> {
    return this.sender.request<Till>({ method: 'POST', path: `tills/${encodeURIComponent(tillId)}/close`, options });
  }

  /** A new `display_url`; the old one stops within a second (a lost tablet, a leaked link). */
  rollDisplayUrl(tillId: string, options?: RequestOptions): Promise<Till> {
    return this.sender.request<Till>({ method: 'POST', path: `tills/${encodeURIComponent(tillId)}/display-url/roll`, options });
  }
}

import type { RequestOptions, RequestSender } from '../http.js';
import type { CreateRefundParams, Refund } from '../types.js';

export class Refunds {
  constructor(private readonly sender: RequestSender) {}

  /** Refunds a succeeded payment, in full (no `amount`) or in part (`amount` in satang). */
  create(params: CreateRefundParams, options?: RequestOptions): Promise<Refund> {
    return this.sender.request<Refund>({ method: 'POST', path: 'refunds', body: params, options });
  }

  retrieve(refundId: string, options?: RequestOptions): Promise<Refund> {
    return this.sender.request<Refund>({ method: 'GET', path: `refunds/${encodeURIComponent(refundId)}`, options });
  }
}

import { WaitTimeoutError } from '../errors.js';
import type { RequestOptions, RequestSender } from '../http.js';
import { PageIterable, pageOf } from '../pagination.js';
import { sleep } from '../sleep.js';
import type { CreateCardPaymentParams, Payment, PaymentListParams, components } from '../types.js';

export interface WaitForCompletionOptions {
  /** Give up after this many milliseconds: a payment still pending then rejects with WaitTimeoutError. Default: 15 minutes. */
  timeoutMs?: number;
  /** Milliseconds between two polls. Default: 2000. */
  intervalMs?: number;
  signal?: AbortSignal;
}

export class Payments {
  constructor(private readonly sender: RequestSender) {}

  retrieve(paymentId: string, options?: RequestOptions): Promise<Payment> {
    return this.sender.request<Payment>({ method: 'GET', path: `payments/${encodeURIComponent(paymentId)}`, options });
  }

  /** Payments newest first: `for await` over all of them, or `.page()` for one page with `total`. */
  list(params: PaymentListParams = {}, options?: RequestOptions): PageIterable<Payment> {
    const { limit, offset, ...filters } = params;
    return new PageIterable(
      async (page) => {
        const body = await this.sender.request<components['schemas']['PaymentList']>({
          method: 'GET',
          path: 'payments',
          query: { ...filters, ...page },
          options,
        });
        return pageOf(body.payments, body);
      },
      (payment) => payment.payment_id,
      { limit, offset },
    );
  }

  /** Charges a card token (sandbox: tok_visa, tok_mastercard; tok_declined and tok_insufficient_funds throw PaymentDeclinedError). */
  create(params: CreateCardPaymentParams, options?: RequestOptions): Promise<Payment> {
    return this.sender.request<Payment>({ method: 'POST', path: 'payments', body: params, options });
  }

  /**
   * Polls the payment until it leaves `pending` (succeeded, failed or expired) and resolves with it. If it is
   * still pending after `timeoutMs`, rejects with a WaitTimeoutError carrying its id and last status. A backup
   * to webhooks, not a replacement.
   */
  async waitForCompletion(paymentId: string, { timeoutMs = 15 * 60_000, intervalMs = 2_000, signal }: WaitForCompletionOptions = {}): Promise<Payment> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const payment = await this.retrieve(paymentId, signal ? { signal } : undefined);
      const remaining = deadline - Date.now();
      if (payment.status !== 'pending') return payment;
      if (remaining <= 0) throw new WaitTimeoutError(payment, timeoutMs);
      await sleep(Math.min(intervalMs, remaining), signal);
    }
  }
}

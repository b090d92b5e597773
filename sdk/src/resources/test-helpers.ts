import type { RequestOptions, RequestSender } from '../http.js';
import type { CreateTestTillPaymentParams, Payment, SucceedTestPaymentParams, TestPaymentSlip } from '../types.js';

/** Sandbox only (`sk_test_` keys): play the customer's bank. With a live key they answer 404. */
export class TestHelpers {
  constructor(private readonly sender: RequestSender) {}

  /** The customer paid: the pending payment becomes `succeeded`; optional payer details fill empty client fields. */
  succeed(paymentId: string, payer?: SucceedTestPaymentParams, options?: RequestOptions): Promise<Payment> {
    return this.sender.request<Payment>({ method: 'POST', path: `test/payments/${encodeURIComponent(paymentId)}/succeed`, body: payer, options });
  }

  /** The bank declined: the pending payment becomes `failed`. */
  fail(paymentId: string, options?: RequestOptions): Promise<Payment> {
    return this.sender.request<Payment>({ method: 'POST', path: `test/payments/${encodeURIComponent(paymentId)}/fail`, options });
  }

  /** The slip of a succeeded payment: its mini QR's `payload` and a PNG (`image`, base64) carrying it, for `slipVerifications.create`. */
  slip(paymentId: string, options?: RequestOptions): Promise<TestPaymentSlip> {
    return this.sender.request<TestPaymentSlip>({ method: 'POST', path: `test/payments/${encodeURIComponent(paymentId)}/slip`, options });
  }

  /** Expires the pending payment now; its QR image answers 410 from then on. */
  expire(paymentId: string, options?: RequestOptions): Promise<Payment> {
    return this.sender.request<Payment>({ method: 'POST', path: `test/payments/${encodeURIComponent(paymentId)}/expire`, options });
  }

  /** A customer scanned the test till's static QR and typed `amount`: a `succeeded` payment of the till. */
  payTill(tillId: string, params: CreateTestTillPaymentParams, options?: RequestOptions): Promise<Payment> {
    return this.sender.request<Payment>({ method: 'POST', path: `test/tills/${encodeURIComponent(tillId)}/payments`, body: params, options });
  }
}

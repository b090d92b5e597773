import type { RequestOptions, RequestSender } from '../http.js';
import type { CreateSlipVerificationParams, SlipVerification } from '../types.js';

/** A customer's transfer slip checked with the receiving bank: `verified`, or a fake, reused or foreign slip called out. */
export class SlipVerifications {
  constructor(private readonly sender: RequestSender) {}

  /**
   * Checks a slip: exactly one of `payload` (the text of its mini QR) or `image` (a PNG or JPEG photo, base64, at most
   * 2 MiB); optionally the `payment_id` it should pay or the `amount` expected (satang). Each call is one check.
   */
  create(params: CreateSlipVerificationParams, options?: RequestOptions): Promise<SlipVerification> {
    return this.sender.request<SlipVerification>({ method: 'POST', path: 'slip-verifications', body: params, options });
  }

  retrieve(slipVerificationId: string, options?: RequestOptions): Promise<SlipVerification> {
    return this.sender.request<SlipVerification>({ method: 'GET', path: `slip-verifications/${encodeURIComponent(slipVerificationId)}`, options });
  }
}

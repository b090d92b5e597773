import type { RequestOptions, RequestSender } from '../http.js';
import type { CreateQrCodeParams, QrCode, QrCodeImageParams } from '../types.js';

export class QrCodes {
  constructor(
    private readonly sender: RequestSender,
    private readonly origin: string,
  ) {}

  /**
   * Generates a PromptPay QR code and the `pending` payment it collects (`payment_id`). Amount in satang
   * (100 to 200,000,000). Retried calls reuse one Idempotency-Key, so they never make a second payment.
   */
  create(params: CreateQrCodeParams, options?: RequestOptions): Promise<QrCode> {
    return this.sender.request<QrCode>({ method: 'POST', path: 'qr-codes', body: params, options });
  }

  /**
   * The public address of a QR code's image (PNG by default, or SVG; 200 to 1000 px, default 300), for an
   * `<img>` on a checkout page. Needs no API key; makes no request.
   */
  imageUrl(qrCodeId: string, params: QrCodeImageParams = {}): string {
    const url = new URL(`${this.origin}/Thai/qr-codes/${encodeURIComponent(qrCodeId)}/image`);
    if (params.format !== undefined) url.searchParams.set('format', params.format);
    if (params.size !== undefined) url.searchParams.set('size', String(params.size));
    return url.toString();
  }
}

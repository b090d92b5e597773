export const DEFAULT_EXPIRY_MINUTES = 15;

/** A QR code is the customer's way to pay one pending payment; its image is public, so its id is unguessable. */
export interface QrCode {
  id: string;
  merchantId: string;
  paymentId: string;
  qrData: string;
  bankReference: string; // carried in the payload; the bank reports it back to name the payment
  /** Where the checkout page sends the customer once paid; null: the page stays. */
  returnUrl: string | null;
  /** The till the payment is taken at; null when none. */
  tillId: string | null;
  expiresAt: Date;
  createdAt: Date;
}

export const expiresAtFor = (now: Date, expiryMinutes: number): Date => new Date(now.getTime() + expiryMinutes * 60_000);

/** Tells open checkout pages that a QR code's payment changed status (PostgreSQL NOTIFY), without one connection per page. */
export interface PaymentStatusChanges {
  /** `onChange(qrCodeId)` for each change; `onChange(null)` when changes may have been missed (a reconnect). */
  subscribe(onChange: (qrCodeId: string | null) => void): Promise<() => Promise<void>>;
}

/** The channel a payment's status change notifies on commit, with its QR code id as the payload. */
export const paymentStatusChannel = 'payment_status';

/** The benches' QR code request: a fixed valid body (the contract's example without the expiry); only the Idempotency-Key changes. */
export const QR_BODY = JSON.stringify({
  amount: 150000,
  currency: 'THB',
  reference: 'INV-2026-00042',
  client_name: 'Somchai Jaidee',
  client_bank_name: 'Kasikornbank',
  metadata: { order_id: 'ORD-88213', customer_id: 'cus_4821' },
});

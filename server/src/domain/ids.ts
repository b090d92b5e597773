/** Identifier kinds: a prefix, then an opaque random part. */
export const idPrefixes = {
  merchant: 'mch',
  payment: 'pay',
  qrCode: 'qr',
  transaction: 'txn',
  refund: 'rfd',
  webhook: 'wh',
  event: 'evt',
  delivery: 'whd',
  apiKey: 'key',
  request: 'req',
  withdrawal: 'wd',
  balanceTransaction: 'bt',
  bankTransaction: 'btx',
  audit: 'aud',
  user: 'usr',
  invitation: 'inv',
  taxInvoice: 'tiv',
  till: 'till',
  slipVerification: 'slv',
} as const;

export type IdKind = keyof typeof idPrefixes;

import type { CustomerBank } from '../../ports/bank.js';

/** The sandbox bank settles every refund at once. Payments it completes are driven by the test helpers. */
export const sandboxBank: CustomerBank = {
  sendRefund: async () => 'succeeded',
};

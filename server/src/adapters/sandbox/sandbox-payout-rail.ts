import type { AutomatedPayoutRail } from '../../ports/payout-rail.js';

/** The sandbox rail takes every transfer, and pays it, except to an account ending in 0000, which is closed. */
export const sandboxPayoutRail: AutomatedPayoutRail = {
  submit: async () => ({ status: 'processed' }),
  outcome: async (transfer) =>
    transfer.destination.accountNumber.endsWith('0000')
      ? { status: 'failed', failure: { code: 'account_closed', message: 'The destination account is closed (sandbox: account numbers ending in 0000).' } }
      : { status: 'succeeded' },
};

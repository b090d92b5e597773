import { stringify } from 'csv-stringify/sync';
import type { BulkTransferFile } from '../../ports/payout-rail.js';

/** The bank bulk-transfer file: one line per transfer, amounts in satang and in baht, after a header line. */
export const bulkTransferCsv: BulkTransferFile = {
  render: (transfers) =>
    stringify(
      transfers.map((t) => [t.id, t.amount, (t.amount / 100).toFixed(2), t.destination.bankCode, t.destination.accountNumber, t.destination.accountName]),
      { header: true, columns: ['reference', 'amount_satang', 'amount_thb', 'bank_code', 'account_number', 'account_name'] },
    ),
};

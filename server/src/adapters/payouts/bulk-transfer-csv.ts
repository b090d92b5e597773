import { csvFile } from '../csv/csv-file.js';
import type { BulkTransferFile } from '../../ports/payout-rail.js';

const COLUMNS = ['reference', 'amount_satang', 'amount_thb', 'bank_code', 'account_number', 'account_name'] as const;

/** The bank bulk-transfer file: one line per transfer, amounts in satang and in baht, after a header line; no BOM (banks' parsers). */
export const bulkTransferCsv: BulkTransferFile = {
  render: (transfers) =>
    csvFile(
      COLUMNS,
      transfers.map((t) => [t.id, t.amount, (t.amount / 100).toFixed(2), t.destination.bankCode, t.destination.accountNumber, t.destination.accountName]),
    ),
};

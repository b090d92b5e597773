import { countUnmatchedBankTransactions, listUnmatchedBankTransactions } from './app/bank-payments.js';
import type { Runtime } from './main.js';

/** `bank unmatched [--json]`: money the bank received that settled no payment, for the operator to resolve. */
export async function printUnmatchedBankTransactions(runtime: Runtime, json: boolean): Promise<void> {
  const [rows, total] = await Promise.all([listUnmatchedBankTransactions(runtime.services), countUnmatchedBankTransactions(runtime.services)]);
  const unmatched = rows.map((r) => ({
    bank_transaction_id: r.id,
    transaction_id: r.transactionId,
    reason: r.reason,
    ref1: r.ref1,
    amount: r.amount,
    payment_id: r.paymentId,
    paid_at: r.paidAt.toISOString(),
    recorded_at: r.recordedAt.toISOString(),
  }));
  if (json) return console.log(JSON.stringify({ unmatched, total }));
  if (total === 0) return console.log('No unmatched bank transactions.');
  console.log(`${total} unmatched bank transaction(s)${total > unmatched.length ? `, newest ${unmatched.length} shown` : ''}:`);
  for (const u of unmatched) {
    console.log(`${u.bank_transaction_id}  ${u.reason.padEnd(19)}  ${u.amount.padStart(12)} THB  ref1 ${u.ref1}  bank id ${u.transaction_id}  paid ${u.paid_at}${u.payment_id ? `  payment ${u.payment_id}` : ''}`);
  }
}

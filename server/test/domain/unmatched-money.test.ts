import { describe, expect, it } from 'vitest';
import { isOpen, resolveProblem, resolveWithNote, returnProblem, returnToPayer, type UnmatchedBankTransaction } from '../../src/domain/bank-transaction.js';

const at = new Date('2026-11-20T08:00:00.000Z');
const open: UnmatchedBankTransaction = {
  id: 'btx_1',
  transactionId: '20261120123456789ABCD',
  reason: 'amount_mismatch',
  ref1: 'REF1',
  amount: '250.00',
  paymentId: 'pay_1',
  paidAt: at,
  recordedAt: at,
  payerName: 'SOMCHAI JAIDEE',
  payerAccount: '1234567890',
  sendingBankCode: '004',
  resolution: null,
};

describe('unmatched money', () => {
  it('goes back to the account the bank listed, in satang, once', () => {
    expect(returnProblem(open)).toBeNull();
    const returned = returnToPayer(open, at);
    expect(returned).toEqual({
      kind: 'returned',
      destination: { bankCode: '004', accountNumber: '1234567890', accountName: 'SOMCHAI JAIDEE' },
      amount: 25000,
      status: 'pending',
      exported: false,
      at,
    });
    expect(returnProblem({ ...open, resolution: returned })).toMatch(/already returned once/);
    expect(returnProblem({ ...open, resolution: { ...returned, status: 'failed' } as typeof returned })).toMatch(/already returned once \(failed\)/);
    expect(() => returnToPayer({ ...open, resolution: returned }, at)).toThrow(RangeError);
  });

  it('follows the live-refund rule for the payer account: 10 to 15 digits at a listed bank', () => {
    expect(returnProblem({ ...open, payerAccount: '123456789012345', sendingBankCode: '073' })).toBeNull();
    for (const payerAccount of ['xxx-x-x8820-x', '123456789', '1234567890123456', '', null]) {
      expect(returnProblem({ ...open, payerAccount, sendingBankCode: '004' })).toMatch(/cannot be returned: the payer's (account number|bank account)/);
    }
    for (const sendingBankCode of ['999', '', null]) expect(returnProblem({ ...open, payerAccount: '1234567890', sendingBankCode })).toMatch(/bank code/);
    expect(returnProblem({ ...open, amount: '250.005' })).toMatch(/not an exact amount/);
  });

  it('is closed with a note only while open; a failed return opens it again', () => {
    expect(resolveProblem(open, '   ')).toMatch(/note must be/);
    expect(resolveProblem(open, 'line\u0007bell')).toMatch(/control characters/);
    expect(resolveProblem(open, 'x'.repeat(501))).toMatch(/note must be/);
    expect(resolveProblem(open, ' Paid back in cash ')).toBeNull();
    expect(resolveWithNote(' Paid back in cash ', at)).toEqual({ kind: 'resolved', note: 'Paid back in cash', at });
    const returned = returnToPayer(open, at);
    expect(resolveProblem({ ...open, resolution: returned }, 'note')).toMatch(/returned \(pending\)/);
    const failed = { ...open, resolution: { ...returned, status: 'failed' as const } };
    expect(isOpen(failed)).toBe(true);
    expect(resolveProblem(failed, 'note')).toBeNull();
    const resolved = { ...open, resolution: resolveWithNote('done', at) };
    expect(isOpen(resolved)).toBe(false);
    expect(resolveProblem(resolved, 'again')).toMatch(/already closed/);
  });
});

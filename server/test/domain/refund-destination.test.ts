import { describe, expect, it } from 'vitest';
import { refundDestinationOf } from '../../src/domain/bank-transaction.js';

const payer = { payerName: 'SOMSRI DEEJAI', payerAccount: '0987654321', sendingBankCode: '014' };

describe('refundDestinationOf: money goes back only to the account the bank reported', () => {
  it('is exactly the reported account number, bank code and name', () => {
    expect(refundDestinationOf(payer)).toEqual({ account: { bankCode: '014', accountNumber: '0987654321', accountName: 'SOMSRI DEEJAI' } });
    expect(refundDestinationOf({ ...payer, payerAccount: '123456789012345', sendingBankCode: '073' })).toEqual({
      account: { bankCode: '073', accountNumber: '123456789012345', accountName: 'SOMSRI DEEJAI' },
    });
  });

  it.each([
    ['no bank transaction', null, /payer's bank account is unknown/],
    ['no account reported', { ...payer, payerAccount: null }, /payer's bank account is unknown/],
    ['a masked number', { ...payer, payerAccount: 'xxx-x-x8820-x' }, /'xxx-x-x8820-x'\) is not 10 to 15 digits/],
    ['a formatted number', { ...payer, payerAccount: '098-7-65432-1' }, /not 10 to 15 digits/],
    ['9 digits', { ...payer, payerAccount: '098765432' }, /not 10 to 15 digits/],
    ['16 digits', { ...payer, payerAccount: '0987654321098765' }, /not 10 to 15 digits/],
    ['an unknown bank code', { ...payer, sendingBankCode: '999' }, /bank code '999' is not one of 002, 004, 006, 011, 014, 025, 030, 069, 073/],
    ['no bank code', { ...payer, sendingBankCode: null }, /bank code '' is not one of/],
    ['a name an object inherits', { ...payer, sendingBankCode: 'toString' }, /bank code 'toString' is not one of/],
  ])('refuses %s, saying why', (_case, reported, why) => {
    const destination = refundDestinationOf(reported);
    expect(destination).not.toHaveProperty('account');
    expect((destination as { refused: string }).refused).toMatch(why);
  });
});

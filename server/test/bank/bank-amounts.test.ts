import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bangkokDate, bankShortName, inquiryDatesAround, inquiryDatesBetween, parseBankAmount, parseConfirmation } from '../../src/domain/bank-transaction.js';

describe('bank amounts are parsed exactly into satang', () => {
  it.each([
    ['100', 10000],
    ['100.00', 10000],
    [100, 10000],
    ['2.0100', 201],
    ['150.5', 15050],
    [150.5, 15050],
    ['0.01', 1],
    [' 7.00 ', 700],
  ])('%j is %i satang', (amount, satang) => {
    expect(parseBankAmount(amount)).toBe(satang);
  });

  it.each([['1.001'], ['2.0101'], ['abc'], [''], ['-1.00'], ['1e3'], [Number.NaN], [Infinity], [null], [{}], ['1,000.00'], [0.001]])(
    '%j does not fit',
    (amount) => {
      expect(parseBankAmount(amount)).toBeNull();
    },
  );

  it('every satang amount survives the bank writing it with two decimals, or as a number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000_000 }), (satang) => {
        const baht = `${Math.floor(satang / 100)}.${String(satang % 100).padStart(2, '0')}`;
        expect(parseBankAmount(baht)).toBe(satang);
        expect(parseBankAmount(`${baht}00`)).toBe(satang);
        if (satang % 100 === 0) expect(parseBankAmount(satang / 100)).toBe(satang);
      }),
    );
  });
});

describe('bank dates are in Asia/Bangkok', () => {
  it('files a payment under its Bangkok date, and near midnight asks about the neighbouring day too', () => {
    expect(bangkokDate(new Date('2026-11-20T16:59:00Z'))).toBe('2026-11-20');
    expect(bangkokDate(new Date('2026-11-20T17:00:00Z'))).toBe('2026-11-21');
    expect(inquiryDatesAround(new Date('2026-11-20T12:00:00+07:00'))).toEqual(['2026-11-20']);
    expect(inquiryDatesAround(new Date('2026-11-20T23:55:00+07:00'))).toEqual(['2026-11-20', '2026-11-21']);
    expect(inquiryDatesAround(new Date('2026-11-21T00:05:00+07:00'))).toEqual(['2026-11-20', '2026-11-21']);
    expect(inquiryDatesBetween(new Date('2026-11-20T20:00:00+07:00'), new Date('2026-11-22T09:00:00+07:00'))).toEqual([
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
    ]);
  });

  it('names payer banks by their short name; an unlisted code stands for itself', () => {
    expect(['002', '004', '006', '011', '014', '025', '030', '069', '073', '999'].map(bankShortName)).toEqual([
      'BBL',
      'KBANK',
      'KTB',
      'TTB',
      'SCB',
      'BAY',
      'GSB',
      'KKP',
      'LHB',
      '999',
    ]);
  });

  it('reads a confirmation only with a string id and ref1, an ISO 8601 time and an amount', () => {
    const body = { transactionId: 'T1', billPaymentRef1: 'R1', transactionDateandTime: '2026-11-20T15:15:30+07:00', amount: '150.00' };
    expect(parseConfirmation(body)).toMatchObject({ transactionId: 'T1', ref1: 'R1', amount: '150.00', billerId: null });
    expect(parseConfirmation({ ...body, transactionDateandTime: '20/11/2026' })).toBeNull();
    expect(parseConfirmation({ ...body, amount: true })).toBeNull();
    expect(parseConfirmation('T1')).toBeNull();
  });
});

import { describe, it, expect } from 'vitest';
import { parse, validate } from 'promptparse';
import { buildPromptPayPayload, crc16CcittFalse, isValidBillerId, isValidPromptPayId, type PromptPayAccount } from '../../src/domain/promptpay-payload.js';

const REFERENCE = 'QR8F3K2M9X';

function payloadFor(account: PromptPayAccount, amountSatang = 150000): string {
  return buildPromptPayPayload({ account, amountSatang, reference: REFERENCE });
}

function parsedStrictly(payload: string) {
  const qr = parse(payload, true);
  if (!qr) throw new Error(`promptparse rejected ${payload}`);
  return qr;
}

describe('crc16CcittFalse', () => {
  it('matches the CRC-16/CCITT-FALSE check value', () => {
    expect(crc16CcittFalse('123456789')).toBe('29B1');
  });

  it('pads to four uppercase hex digits', () => {
    expect(crc16CcittFalse('')).toBe('FFFF');
    expect(crc16CcittFalse('A')).toMatch(/^[0-9A-F]{4}$/);
  });
});

describe('buildPromptPayPayload with a PromptPay id (tag 29)', () => {
  it('encodes a mobile number as 0066 + number and is accepted by promptparse', () => {
    const payload = payloadFor({ kind: 'promptpay_id', id: '0812345678' });
    const qr = parsedStrictly(payload);

    expect(payload.startsWith('000201010212')).toBe(true);
    expect(qr.getTagValue('29', '00')).toBe('A000000677010111');
    expect(qr.getTagValue('29', '01')).toBe('0066812345678');
    expect(qr.getTagValue('53')).toBe('764');
    expect(qr.getTagValue('54')).toBe('1500.00');
    expect(qr.getTagValue('58')).toBe('TH');
    expect(qr.getTagValue('62', '05')).toBe(REFERENCE);
    expect(qr.getTagValue('63')).toBe(crc16CcittFalse(payload.slice(0, -4)));
    expect(validate.anyId(payload)).toEqual({ type: 'MSISDN', target: '0812345678', amount: 1500 });
  });

  it('encodes a national id in sub-tag 02', () => {
    const payload = payloadFor({ kind: 'promptpay_id', id: '1234567890121' });
    const qr = parsedStrictly(payload);

    expect(qr.getTagValue('29', '02')).toBe('1234567890121');
    expect(qr.getTagValue('62', '05')).toBe(REFERENCE);
    expect(validate.anyId(payload)).toEqual({ type: 'NATID', target: '1234567890121', amount: 1500 });
  });

  it('encodes an e-wallet id in sub-tag 03', () => {
    const payload = payloadFor({ kind: 'promptpay_id', id: '140000012345678' });
    const qr = parsedStrictly(payload);

    expect(qr.getTagValue('29', '03')).toBe('140000012345678');
    expect(validate.anyId(payload)).toEqual({ type: 'EWALLETID', target: '140000012345678', amount: 1500 });
  });
});

describe('buildPromptPayPayload with a biller id (tag 30)', () => {
  it('carries the biller id and the reference as ref1 and is accepted by promptparse', () => {
    const payload = payloadFor({ kind: 'biller_id', billerId: '010753600031508' });
    const qr = parsedStrictly(payload);

    expect(payload.startsWith('000201010212')).toBe(true);
    expect(qr.getTagValue('30', '00')).toBe('A000000677010112');
    expect(qr.getTagValue('53')).toBe('764');
    expect(qr.getTagValue('54')).toBe('1500.00');
    expect(qr.getTagValue('58')).toBe('TH');
    expect(validate.billPayment(payload)).toEqual({
      billerId: '010753600031508',
      ref1: REFERENCE,
      amount: 1500,
    });
  });
});

describe('checksum', () => {
  it('is rejected by promptparse after a one-character change', () => {
    const payload = payloadFor({ kind: 'promptpay_id', id: '0812345678' });
    const tampered = payload.replace('1500.00', '1600.00');

    expect(tampered).not.toBe(payload);
    expect(parse(tampered, true)).toBeNull();
    expect(validate.anyId(tampered)).toBeNull();
  });
});

describe('amount formatting', () => {
  it.each([
    [1, '0.01'],
    [100, '1.00'],
    [150000, '1500.00'],
    [200000000, '2000000.00'],
  ])('%i satang is %s THB', (amountSatang, expected) => {
    const payload = payloadFor({ kind: 'promptpay_id', id: '0812345678' }, amountSatang);
    expect(parsedStrictly(payload).getTagValue('54')).toBe(expected);
  });

  it.each([0, -100, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])('rejects %s satang', (amountSatang) => {
    expect(() => payloadFor({ kind: 'promptpay_id', id: '0812345678' }, amountSatang)).toThrow(Error);
  });
});

describe('input validation', () => {
  it.each(['', 'lowercase', 'WITH-DASH', 'A'.repeat(21)])('rejects reference %j', (reference) => {
    expect(() => buildPromptPayPayload({ account: { kind: 'promptpay_id', id: '0812345678' }, amountSatang: 100, reference })).toThrow(Error);
  });

  it('rejects malformed accounts', () => {
    expect(() => payloadFor({ kind: 'promptpay_id', id: '812345678' })).toThrow(Error);
    expect(() => payloadFor({ kind: 'biller_id', billerId: '0107536000315' })).toThrow(Error);
  });

  it('recognises PromptPay ids and biller ids', () => {
    expect(isValidPromptPayId('0812345678')).toBe(true);
    expect(isValidPromptPayId('1234567890121')).toBe(true);
    expect(isValidPromptPayId('140000012345678')).toBe(true);
    expect(isValidPromptPayId('8123456789')).toBe(false);
    expect(isValidPromptPayId('08123456789')).toBe(false);
    expect(isValidPromptPayId('08-1234-5678')).toBe(false);
    expect(isValidBillerId('010753600031508')).toBe(true);
    expect(isValidBillerId('0107536000315')).toBe(false);
    expect(isValidBillerId('01075360003150X')).toBe(false);
  });
});

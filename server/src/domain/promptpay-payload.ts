// Thai QR Payment (EMVCo merchant-presented) payloads for PromptPay.

export type PromptPayAccount = { kind: 'promptpay_id'; id: string } | { kind: 'biller_id'; billerId: string };

export type PromptPayPayloadInput = {
  account: PromptPayAccount;
  amountSatang: number;
  reference: string;
  /** Bill payments only: ref2, a fixed mark of the service. */
  ref2?: string;
};

const CREDIT_TRANSFER_AID = 'A000000677010111';
const BILL_PAYMENT_AID = 'A000000677010112';
const THB_NUMERIC_CODE = '764';
const MAX_AMOUNT_LENGTH = 13;
const REFERENCE_PATTERN = /^[A-Z0-9]{1,20}$/;

const MOBILE_PATTERN = /^0\d{9}$/;
const NATIONAL_ID_PATTERN = /^\d{13}$/;
const E_WALLET_PATTERN = /^\d{15}$/;
const BILLER_ID_PATTERN = /^\d{15}$/;

/**
 * The account of a merchant the operator gave no PromptPay id (test merchants): a mobile-number proxy no bank can hold.
 * The proxy drops a Thai number's trunk prefix 0 (0066 + the rest), and no Thai number has a second 0 after that prefix
 * (national numbers start with 1 to 9), so 0066000000000 parses like any proxy yet names no number PromptPay could
 * register (it registers a mobile number only after an OTP sent to it): a banking app scanning it finds no account.
 */
export const UNHOLDABLE_PROMPTPAY_ACCOUNT: PromptPayAccount = { kind: 'promptpay_id', id: '0000000000' };

export function isValidPromptPayId(id: string): boolean {
  return MOBILE_PATTERN.test(id) || NATIONAL_ID_PATTERN.test(id) || E_WALLET_PATTERN.test(id);
}

export function isValidBillerId(billerId: string): boolean {
  return BILLER_ID_PATTERN.test(billerId);
}

/** A dynamic QR (point of initiation 12): one payment of this amount. */
export function buildPromptPayPayload(input: PromptPayPayloadInput): string {
  return payload(input, formatThbAmount(input.amountSatang));
}

/** A static QR (point of initiation 11, no amount): the customer types the amount; a till's QR at the counter. */
export function buildStaticPromptPayPayload(input: Omit<PromptPayPayloadInput, 'amountSatang'>): string {
  return payload(input, null);
}

function payload({ account, reference, ref2 }: Omit<PromptPayPayloadInput, 'amountSatang'>, amount: string | null): string {
  if (!REFERENCE_PATTERN.test(reference)) {
    throw new Error('PromptPay reference must be 1 to 20 characters of A-Z and 0-9');
  }

  const body =
    field('00', '01') +
    field('01', amount === null ? '11' : '12') +
    merchantAccount(account, reference, ref2) +
    field('53', THB_NUMERIC_CODE) +
    (amount === null ? '' : field('54', amount)) +
    field('58', 'TH') +
    // Bill payment carries the reference as ref1; credit transfer has only tag 62 for it.
    (account.kind === 'promptpay_id' ? field('62', field('05', reference)) : '');

  const withCrcHeader = body + '6304';
  return withCrcHeader + crc16CcittFalse(withCrcHeader);
}

function merchantAccount(account: PromptPayAccount, reference: string, ref2?: string): string {
  if (account.kind === 'biller_id') {
    if (!isValidBillerId(account.billerId)) {
      throw new Error('PromptPay biller id must be 15 digits');
    }
    const mark = ref2 === undefined ? '' : field('03', ref2);
    return field('30', field('00', BILL_PAYMENT_AID) + field('01', account.billerId) + field('02', reference) + mark);
  }
  return field('29', field('00', CREDIT_TRANSFER_AID) + proxy(account.id));
}

function proxy(id: string): string {
  // Mobile numbers travel in international form: 0066 + the number without its leading 0.
  if (MOBILE_PATTERN.test(id)) return field('01', `0066${id.slice(1)}`);
  if (NATIONAL_ID_PATTERN.test(id)) return field('02', id);
  if (E_WALLET_PATTERN.test(id)) return field('03', id);
  throw new Error('PromptPay id must be a 10-digit mobile number, a 13-digit national id or a 15-digit e-wallet id');
}

function formatThbAmount(amountSatang: number): string {
  if (!Number.isSafeInteger(amountSatang) || amountSatang <= 0) {
    throw new Error('PromptPay amount must be a positive whole number of satang');
  }
  const baht = Math.floor(amountSatang / 100);
  const satang = String(amountSatang % 100).padStart(2, '0');
  const amount = `${baht}.${satang}`;
  if (amount.length > MAX_AMOUNT_LENGTH) {
    throw new Error('PromptPay amount is too large for an EMVCo amount field');
  }
  return amount;
}

function field(tag: string, value: string): string {
  if (value.length > 99) {
    throw new Error(`EMVCo field ${tag} is longer than 99 characters`);
  }
  return tag + String(value.length).padStart(2, '0') + value;
}

export function crc16CcittFalse(text: string): string {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i++) {
    crc ^= (text.charCodeAt(i) & 0xff) << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

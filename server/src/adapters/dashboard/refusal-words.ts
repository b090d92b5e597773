import type { ErrorCode, ErrorDetails } from '../../domain/errors.js';
import { formatBaht, type PageLanguage } from '../pages/people-formats.js';

type Say = (details: ErrorDetails) => string;
type Sayings = Partial<Record<ErrorCode, Say>> & { not_found: string; other: string };

const baht = (details: ErrorDetails, name: string): string => formatBaht(details[name] ?? 0);

/**
 * THE table of the service's refusals as the dashboard says them: in the page's language, amounts in baht, never the
 * API's English message (which speaks satang). A code not here reads as `other`.
 */
const refusalWords: Record<PageLanguage, Sayings> = {
  th: {
    invalid_amount: (d) =>
      d.refundable !== undefined
        ? `คืนเงินได้สูงสุด ${baht(d, 'refundable')}`
        : d.maximum !== undefined
          ? `จำนวนเงินต้องอยู่ระหว่าง ${baht(d, 'minimum')} ถึง ${baht(d, 'maximum')}`
          : d.minimum !== undefined
            ? `ถอนเงินได้ครั้งละอย่างน้อย ${baht(d, 'minimum')}`
            : 'จำนวนเงินไม่ถูกต้อง',
    insufficient_funds: (d) => `ยอดเงินไม่พอ: ต้องใช้ ${baht(d, 'amount')} แต่มีเพียง ${baht(d, 'covered')}`,
    payment_not_refundable: () => 'รายการนี้คืนเงินไม่ได้ คืนได้เฉพาะรายการที่ชำระสำเร็จ และยังมียอดเหลือให้คืน',
    payment_not_pending: () => 'รายการนี้ไม่ได้รอชำระแล้ว',
    payout_account_missing: () => 'ยังไม่ได้ตั้งบัญชีรับเงิน ผู้ให้บริการเป็นผู้ตั้ง',
    qr_code_expired: () => 'QR นี้หมดอายุแล้ว',
    till_unavailable: () => 'จุดรับเงินนี้รับชำระไม่ได้ (ไม่มีหรือปิดแล้ว) เลือกจุดรับเงินอื่น',
    not_found: 'ไม่พบรายการนี้',
    other: 'ทำรายการนี้ไม่ได้ กรุณาตรวจสอบข้อมูลแล้วลองใหม่',
  },
  en: {
    invalid_amount: (d) =>
      d.refundable !== undefined
        ? `You can refund at most ${baht(d, 'refundable')}`
        : d.maximum !== undefined
          ? `The amount must be between ${baht(d, 'minimum')} and ${baht(d, 'maximum')}`
          : d.minimum !== undefined
            ? `A withdrawal is at least ${baht(d, 'minimum')}`
            : 'That amount is not valid',
    insufficient_funds: (d) => `The balance is not enough: this needs ${baht(d, 'amount')}, it holds ${baht(d, 'covered')}`,
    payment_not_refundable: () => 'This payment cannot be refunded: only a succeeded payment with something left to refund can',
    payment_not_pending: () => 'This payment is no longer pending',
    payout_account_missing: () => 'No payout account yet: the operator sets it',
    qr_code_expired: () => 'This QR code has expired',
    till_unavailable: () => 'This till cannot take payments (unknown or closed): pick another',
    not_found: 'No such item',
    other: 'This could not be done: check what you entered and try again',
  },
};

/** A refusal of the service (its code and figures) in the page's language. */
export function refusalText(lang: PageLanguage, refusal: { code: ErrorCode; details: ErrorDetails }): string {
  const words = refusalWords[lang];
  if (refusal.code.endsWith('_not_found')) return words.not_found;
  return words[refusal.code]?.(refusal.details) ?? words.other;
}

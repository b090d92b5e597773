import type { SlipStatus } from '../../domain/slip-verification.js';
import type { PageLanguage } from './people-formats.js';

/** A slip's verdict as a person reads it: a mark, a title said large, and what to do. */
export interface VerdictWords {
  mark: string;
  title: string;
  explain: string;
}

const th = {
  title: 'ตรวจสลิป',
  camera: 'ถ่ายรูปสลิป',
  file: 'หรือเลือกไฟล์รูปสลิป',
  photoHint: 'รูป PNG หรือ JPEG ไม่เกิน 2 MiB ที่เห็น QR เล็กบนสลิปชัดเจน',
  payload: 'หรือวางข้อความจาก QR บนสลิป',
  check: 'ตรวจสลิป',
  checkAnother: 'ตรวจสลิปอื่น',
  amount: 'จำนวนเงิน',
  paidAt: 'โอนเมื่อ',
  firstVerifiedAt: 'ตรวจผ่านครั้งแรกเมื่อ',
  transRef: 'เลขอ้างอิงรายการ',
  payment: 'การชำระเงิน',
  nothingSent: 'ถ่ายรูปหรือเลือกไฟล์สลิป หรือวางข้อความจาก QR บนสลิป',
  tooLarge: 'รูปใหญ่เกิน 2 MiB กรุณาถ่ายใหม่หรือครอปให้เหลือเฉพาะสลิป',
  problems: {
    slip_unreadable: 'อ่าน QR บนสลิปจากรูปนี้ไม่ได้ กรุณาถ่ายใหม่ให้เห็น QR ชัดเจน',
    invalid_slip: 'นี่ไม่ใช่ QR ตรวจสอบสลิป หรือข้อมูลเสียหาย',
    service_unavailable: 'ตอนนี้ยังถามธนาคารไม่ได้ ยังไม่มีการบันทึกใด ๆ กรุณาลองอีกครั้งในอีกสักครู่',
    other: 'ตรวจสลิปนี้ไม่ได้',
  },
  verdicts: {
    verified: { mark: '✓', title: 'สลิปถูกต้อง', explain: 'ธนาคารยืนยันว่าเงินโอนเข้ารายการนี้แล้ว' },
    duplicate: { mark: '!', title: 'สลิปนี้ถูกใช้แล้ว', explain: 'สลิปของรายการโอนนี้เคยตรวจผ่านไปแล้ว อย่ารับซ้ำ' },
    not_found: { mark: '✕', title: 'ไม่พบรายการที่ธนาคาร', explain: 'ธนาคารไม่รู้จักรายการนี้ สลิปอาจปลอมหรือถูกแก้ไข' },
    wrong_receiver: { mark: '✕', title: 'โอนให้ผู้รับอื่น', explain: 'เงินตามสลิปนี้ไม่ได้โอนเข้าร้านนี้ (หรือไม่ใช่รายการที่เลือก)' },
    amount_mismatch: { mark: '!', title: 'ยอดเงินไม่ตรง', explain: 'เงินเข้าร้านนี้ แต่ยอดไม่ตรงกับที่ต้องจ่าย' },
  } satisfies Record<SlipStatus, VerdictWords>,
};

const en: typeof th = {
  title: 'Check a slip',
  camera: 'Take a photo of the slip',
  file: 'or choose the slip’s image file',
  photoHint: 'A PNG or JPEG of at most 2 MiB in which the small QR on the slip is sharp',
  payload: 'or paste the text of the slip’s QR',
  check: 'Check the slip',
  checkAnother: 'Check another slip',
  amount: 'Amount',
  paidAt: 'Transferred',
  firstVerifiedAt: 'First verified',
  transRef: 'Transaction reference',
  payment: 'Payment',
  nothingSent: 'Take a photo or choose the slip’s file, or paste the text of its QR',
  tooLarge: 'The image is larger than 2 MiB: take it again, or crop it to the slip',
  problems: {
    slip_unreadable: 'No slip QR could be read from this image: take it again with the QR sharp',
    invalid_slip: 'This is not a slip verification QR, or it is damaged',
    service_unavailable: 'The bank cannot be asked right now and nothing was recorded: try again in a moment',
    other: 'This slip could not be checked',
  },
  verdicts: {
    verified: { mark: '✓', title: 'Verified', explain: 'The bank confirms this money was paid to this payment' },
    duplicate: { mark: '!', title: 'Used before', explain: 'A slip of this transfer was verified before: do not accept it again' },
    not_found: { mark: '✕', title: 'Not found at the bank', explain: 'The bank knows no such transfer: the slip may be fake or edited' },
    wrong_receiver: { mark: '✕', title: 'Paid to someone else', explain: 'This money was not paid to this shop (or not to the payment chosen)' },
    amount_mismatch: { mark: '!', title: 'Amount does not match', explain: 'This money came to this shop, but not the amount expected' },
  },
};

export const slipWords = { th, en } as const satisfies Record<PageLanguage, typeof th>;
export type SlipWords = typeof th;

/** A refusal of a slip check, said to a person; null for an error that is not about the slip. */
export function slipProblemOf(words: SlipWords, code: string): string {
  return code in words.problems ? words.problems[code as keyof SlipWords['problems']] : words.problems.other;
}

import type { AuditAction, AuditEntry } from '../../domain/audit.js';
import { isRole } from '../../domain/permissions.js';
import { formatBaht, type PageLanguage } from '../pages/people-formats.js';
import { messages } from './messages.js';

type Details = AuditEntry['details'];

/** A detail as the sentence needs it: amounts in baht, roles by their names, anything else as recorded. */
const reader = (lang: PageLanguage, details: Details) => ({
  text: (name: string): string => String(details[name] ?? ''),
  baht: (name: string): string => (typeof details[name] === 'number' ? formatBaht(details[name]) : ''),
  role: (name: string): string => {
    const role = String(details[name] ?? '');
    return isRole(role) ? messages[lang].roles[role] : role;
  },
});

type Sentence = (d: ReturnType<typeof reader>) => string;

/** Every audited action as a sentence, in Thai and English. */
const sentences: Record<PageLanguage, Record<AuditAction, Sentence>> = {
  th: {
    sign_in: () => 'เข้าสู่ระบบ',
    sign_in_failed: () => 'เข้าสู่ระบบไม่สำเร็จ',
    sign_out: (d) => (d.text('sessions') === 'others' ? `ออกจากระบบที่อื่น ${d.text('ended')} เซสชัน` : 'ออกจากระบบ'),
    password_changed: () => 'เปลี่ยนรหัสผ่าน',
    second_factor_changed: () => 'เปลี่ยนแอปยืนยันตัวตน',
    recovery_codes_regenerated: () => 'สร้างรหัสกู้คืนชุดใหม่',
    invitation_created: (d) => `เชิญ ${d.text('email')} เป็น${d.role('role')}`,
    invitation_accepted: (d) => `${d.text('email')} รับคำเชิญเป็น${d.role('role')}`,
    invitation_revoked: (d) => `ยกเลิกคำเชิญ ${d.text('email')}`,
    role_changed: (d) => `เปลี่ยนบทบาทของ ${d.text('email')} จาก${d.role('from')}เป็น${d.role('to')}`,
    member_removed: (d) => `นำ ${d.text('email')} (${d.role('role')}) ออกจากทีม`,
    refund_created: (d) => `สร้างการคืนเงิน ${d.baht('amount')}`,
    withdrawal_requested: (d) => `ขอถอนเงิน ${d.baht('amount')}`,
    api_key_created: (d) => `สร้าง API key ····${d.text('last4')}`,
    api_key_rolled: (d) => `เปลี่ยน API key เป็น ····${d.text('last4')}`,
    api_key_revoked: (d) => `เพิกถอน API key ····${d.text('last4')}`,
    webhook_created: (d) => `เพิ่มเว็บฮุก ${d.text('url')}`,
    webhook_updated: () => 'แก้ไขเว็บฮุก',
    webhook_deleted: () => 'ลบเว็บฮุก',
    webhook_secret_revealed: () => 'เปิดดูรหัสลับของเว็บฮุก',
    webhook_secret_rotated: () => 'เปลี่ยนรหัสลับของเว็บฮุก',
    webhook_test_sent: () => 'ส่งเว็บฮุกทดสอบ',
    delivery_retried: () => 'ส่งเว็บฮุกซ้ำ',
    test_payment_completed: (d) =>
      `ตัวช่วยทดสอบ: ทำให้รายการ${d.text('outcome') === 'succeeded' ? 'สำเร็จ' : d.text('outcome') === 'failed' ? 'ไม่สำเร็จ' : 'หมดอายุ'}`,
    tax_invoice_issued: (d) => `ออกใบกำกับภาษี ${d.text('serial')} ยอด ${d.baht('total')}`,
    till_created: (d) => `เพิ่มจุดรับเงิน ${d.text('name')}`,
    till_renamed: (d) => `เปลี่ยนชื่อจุดรับเงินเป็น ${d.text('name')}`,
    till_closed: (d) => `ปิดจุดรับเงิน ${d.text('name')}`,
    till_display_url_rolled: (d) => `เปลี่ยนลิงก์จอลูกค้าของจุดรับเงิน ${d.text('name')}`,
  },
  en: {
    sign_in: () => 'Signed in',
    sign_in_failed: () => 'Sign-in failed',
    sign_out: (d) => (d.text('sessions') === 'others' ? `Signed out ${d.text('ended')} other sessions` : 'Signed out'),
    password_changed: () => 'Password changed',
    second_factor_changed: () => 'Authenticator app changed',
    recovery_codes_regenerated: () => 'New recovery codes made',
    invitation_created: (d) => `${d.text('email')} invited as ${d.role('role')}`,
    invitation_accepted: (d) => `${d.text('email')} joined as ${d.role('role')}`,
    invitation_revoked: (d) => `Invitation of ${d.text('email')} revoked`,
    role_changed: (d) => `${d.text('email')} changed from ${d.role('from')} to ${d.role('to')}`,
    member_removed: (d) => `${d.text('email')} (${d.role('role')}) removed from the team`,
    refund_created: (d) => `Refund of ${d.baht('amount')} created`,
    withdrawal_requested: (d) => `Withdrawal of ${d.baht('amount')} requested`,
    api_key_created: (d) => `API key ····${d.text('last4')} created`,
    api_key_rolled: (d) => `API keys rolled: the new one is ····${d.text('last4')}`,
    api_key_revoked: (d) => `API key ····${d.text('last4')} revoked`,
    webhook_created: (d) => `Webhook ${d.text('url')} added`,
    webhook_updated: () => 'Webhook changed',
    webhook_deleted: () => 'Webhook deleted',
    webhook_secret_revealed: () => 'Webhook secret shown',
    webhook_secret_rotated: () => 'Webhook secret rotated',
    webhook_test_sent: () => 'Test webhook sent',
    delivery_retried: () => 'Webhook delivery retried',
    test_payment_completed: (d) => `Test helper: payment marked ${d.text('outcome')}`,
    tax_invoice_issued: (d) => `Tax invoice ${d.text('serial')} of ${d.baht('total')} issued`,
    till_created: (d) => `Till ${d.text('name')} added`,
    till_renamed: (d) => `Till renamed ${d.text('name')}`,
    till_closed: (d) => `Till ${d.text('name')} closed`,
    till_display_url_rolled: (d) => `Customer display link of till ${d.text('name')} changed`,
  },
};

/** An audit entry as a sentence in the page's language: "Refund of ฿93.80 created", not `refund_created amount=9380`. */
export const auditSentence = (lang: PageLanguage, entry: Pick<AuditEntry, 'action' | 'details'>): string =>
  sentences[lang][entry.action](reader(lang, entry.details));

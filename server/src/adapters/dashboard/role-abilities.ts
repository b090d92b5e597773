import { abilitiesOfRole, roles, type Ability } from '../../domain/permissions.js';
import type { PageLanguage } from '../pages/people-formats.js';
import { messages } from './messages.js';

/** What each ability lets a member do, in words; the roles' lists come from THE permission table, never from here. */
const abilityWords: Record<PageLanguage, Record<Ability, string>> = {
  th: {
    'qr_codes:read': 'ดู QR พร้อมเพย์',
    'qr_codes:write': 'สร้าง QR พร้อมเพย์',
    'payments:read': 'ดูการชำระเงิน',
    'payments:write': 'ใช้ตัวช่วยทดสอบการชำระ (ร้านค้าทดสอบ)',
    'refunds:read': 'ดูการคืนเงิน',
    'refunds:write': 'คืนเงินให้ลูกค้า',
    'transactions:read': 'ดูรายการเดินบัญชี',
    'transactions:write': 'แก้รายการเดินบัญชี',
    'balance:read': 'ดูยอดเงิน',
    'balance:write': 'แก้ยอดเงิน',
    'withdrawals:read': 'ดูการถอนเงิน',
    'withdrawals:write': 'ถอนเงินเข้าบัญชีรับเงิน',
    'webhooks:read': 'ดูเว็บฮุก',
    'webhooks:write': 'จัดการเว็บฮุกและรหัสลับ',
    'events:read': 'ดูอีเวนต์',
    'events:write': 'แก้อีเวนต์',
    'reports:read': 'ดูรายงาน ใบแจ้งยอด และใบกำกับภาษี',
    'reports:write': 'แก้รายงาน',
    'api_keys:write': 'สร้างและเพิกถอนคีย์ API (คีย์จำกัดสิทธิ์ภายในบทบาทของตน)',
    'api_keys:unrestricted': 'สร้างหรือเปลี่ยนคีย์ API แบบไม่จำกัดสิทธิ์',
    'team:write': 'เชิญสมาชิก เปลี่ยนบทบาท และนำสมาชิกออก',
    'audit:read': 'ดูบันทึกการใช้งาน',
    'tills:read': 'ดูจุดรับเงิน',
    'tills:write': 'จัดการจุดรับเงินและจอลูกค้า',
    receive: 'รับเงินหน้าร้าน (หน้ารับเงิน)',
    'slips:read': 'ดูผลการตรวจสลิป',
    'slips:write': 'ตรวจสลิปโอนเงินของลูกค้า',
  },
  en: {
    'qr_codes:read': 'see PromptPay QR codes',
    'qr_codes:write': 'create PromptPay QR codes',
    'payments:read': 'see payments',
    'payments:write': 'use the test helpers on payments (test merchants)',
    'refunds:read': 'see refunds',
    'refunds:write': 'refund customers',
    'transactions:read': 'see the ledger',
    'transactions:write': 'change the ledger',
    'balance:read': 'see the balance',
    'balance:write': 'change the balance',
    'withdrawals:read': 'see withdrawals',
    'withdrawals:write': 'withdraw to the payout account',
    'webhooks:read': 'see webhooks',
    'webhooks:write': 'manage webhooks and their secrets',
    'events:read': 'see events',
    'events:write': 'change events',
    'reports:read': 'see reports, statements and tax invoices',
    'reports:write': 'change reports',
    'api_keys:write': 'create and revoke API keys (restricted keys within their own role)',
    'api_keys:unrestricted': 'create or roll unrestricted API keys',
    'team:write': 'invite members, change roles and remove members',
    'audit:read': 'read the audit log',
    'tills:read': 'see tills',
    'tills:write': 'manage tills and their customer displays',
    receive: 'take payments at the counter (Receive)',
    'slips:read': 'see slip checks',
    'slips:write': "check customers' transfer slips",
  },
};

/** Each role with what it may do, as the Team page explains them. */
export const roleExplanations = (lang: PageLanguage) =>
  roles.map((role) => ({
    role,
    name: messages[lang].roles[role],
    abilities: abilitiesOfRole(role).map((ability) => abilityWords[lang][ability]),
  }));

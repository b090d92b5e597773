import type { PaymentDetail } from '../../app/payment-detail.js';
import type { HomeFigures } from '../../app/dashboard-home.js';
import type { AuditEntry } from '../../domain/audit.js';
import type { LedgerEntry } from '../../domain/balance.js';
import type { Payment } from '../../domain/payment.js';
import type { TimelineEntry } from '../../domain/payment-timeline.js';
import type { Withdrawal } from '../../domain/withdrawal.js';
import { parseBaht } from '../../domain/money.js';
import { bankNameOf } from '../../domain/payout-account.js';
import { auditSentence } from './audit-sentences.js';
import { dailyChart } from './daily-chart.js';
import { fill, type MoneyWords } from './money-messages.js';
import { formatBaht, formatCalendarDate, formatDateTime } from '../pages/people-formats.js';

/** Turns domain objects into what the templates print: every text here is escaped by Mustache when rendered. */
export const paymentRow = (t: MoneyWords, p: Payment) => ({
  id: p.id,
  created: formatDateTime(t.lang, p.createdAt),
  amount: formatBaht(p.amount),
  status: p.status,
  statusText: t[`status_${p.status}`],
  reference: p.reference ?? '',
  /** What the row's link reads: the reference, else the id. */
  name: p.reference ?? p.id,
});

export const homeView = (t: MoneyWords, figures: HomeFigures) => ({
  t,
  available: formatBaht(figures.balance.available),
  pending: formatBaht(figures.balance.pending),
  todayAmount: formatBaht(figures.today.amount),
  todayCount: fill(t.paymentsCount, { count: figures.today.count }),
  lastAmount: formatBaht(figures.lastDays.amount),
  lastCount: fill(t.paymentsCount, { count: figures.lastDays.count }),
  caption: t.latest,
  rows: figures.latest.map((p) => paymentRow(t, p)),
  chart: dailyChart(t.lang, figures.days),
  days: figures.days.map((d) => ({ date: formatCalendarDate(t.lang, d.date), count: d.count, amount: formatBaht(d.amount) })),
});

/** The bank's amount (baht as text) as people read an amount; as the bank wrote it when it is not one. */
const bankAmount = (text: string): string => {
  const satang = parseBaht(text);
  return satang === null ? text : formatBaht(satang);
};

function timelineText(t: MoneyWords, entry: TimelineEntry, detail: PaymentDetail): string {
  switch (entry.kind) {
    case 'created':
      return t.ev_created;
    case 'status':
      return fill(t.ev_status, { status: t[`status_${entry.status}`] });
    case 'refund':
      return fill(t.ev_refund, { amount: formatBaht(entry.refund.amount), refund: entry.refund.id, reason: entry.refund.reason ?? '' }).trim();
    case 'refund_outcome':
      return fill(entry.status === 'succeeded' ? t.ev_refund_outcome_succeeded : t.ev_refund_outcome_failed, { refund: entry.refundId });
    case 'delivery':
      return fill(t.ev_delivery, {
        event: entry.delivery.eventKind,
        url: detail.webhooks.get(entry.delivery.webhookId)?.url ?? entry.delivery.webhookId,
        outcome: t[`delivery_${entry.delivery.status}`] + (entry.delivery.lastResponseStatus ? ` HTTP ${entry.delivery.lastResponseStatus}` : ''),
        attempts: entry.delivery.attempts,
      });
    case 'unmatched':
      return fill(t.ev_unmatched, { amount: bankAmount(entry.unmatched.amount), reason: t[`unmatched_${entry.unmatched.reason}`] });
  }
}

const metadataRows = (metadata: Record<string, unknown>) =>
  Object.entries(metadata).map(([key, value]) => ({ key, value: typeof value === 'string' ? value : JSON.stringify(value) }));

export function paymentView(t: MoneyWords, detail: PaymentDetail, checkoutUrl: string | null) {
  const p = detail.payment;
  const bank = detail.bankPayer;
  return {
    t,
    id: p.id,
    amount: formatBaht(p.amount),
    refunded: formatBaht(p.refundedAmount),
    refundable: formatBaht(detail.refundable),
    status: p.status,
    statusText: t[`status_${p.status}`],
    reference: p.reference,
    description: p.description,
    qrCodeId: p.qrCodeId,
    created: formatDateTime(t.lang, p.createdAt),
    completed: p.completedAt && formatDateTime(t.lang, p.completedAt),
    expires: p.expiresAt && formatDateTime(t.lang, p.expiresAt),
    payable: detail.payableQrCode !== null && checkoutUrl !== null,
    checkoutUrl,
    payerName: p.clientName ?? '—',
    payerBank: p.clientBankName ?? '—',
    payerAccount: p.clientBankAccount ?? '—',
    bankPayer: bank && [bank.payerName, bank.sendingBankCode && bankNameOf(bank.sendingBankCode), bank.payerAccount].filter(Boolean).join(' · '),
    hasMetadata: Object.keys(p.metadata).length > 0,
    metadata: metadataRows(p.metadata),
    timeline: detail.timeline.map((entry) => ({
      kind: entry.kind,
      iso: entry.at.toISOString(),
      at: formatDateTime(t.lang, entry.at),
      text: timelineText(t, entry, detail),
    })),
  };
}

export const withdrawalRow = (t: MoneyWords, w: Withdrawal) => ({
  id: w.id,
  created: formatDateTime(t.lang, w.createdAt),
  amount: formatBaht(w.amount),
  status: w.status,
  statusText: t[`withdrawal_${w.status}`],
});

export const ledgerRow = (t: MoneyWords, e: LedgerEntry) => ({
  created: formatDateTime(t.lang, e.createdAt),
  typeText: t[`type_${e.type}`],
  amount: formatBaht(e.amount),
  fee: formatBaht(e.fee + e.feeVat),
  net: formatBaht(e.net),
  availableOn: formatDateTime(t.lang, e.availableOn),
  sourceId: e.sourceId,
});

export const auditWho = (t: MoneyWords, entry: AuditEntry): string => {
  const actor = entry.context.actor;
  if (actor.kind === 'user') return actor.email;
  if (actor.kind === 'api_key')
    return actor.madeBy ? fill(t.apiKeyMadeBy, { last4: actor.last4, email: actor.madeBy.email }) : fill(t.apiKey, { last4: actor.last4 });
  return t.operator;
};

export const auditRow = (t: MoneyWords, entry: AuditEntry) => ({
  at: formatDateTime(t.lang, entry.createdAt),
  who: auditWho(t, entry),
  action: entry.action,
  sentence: auditSentence(t.lang, entry),
  subject: entry.subjectId ?? '',
  channel: t[`channel_${entry.context.channel}`],
  address: entry.context.clientAddress ?? '',
});

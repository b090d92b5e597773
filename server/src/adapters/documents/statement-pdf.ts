import { readFileSync } from 'node:fs';
import Mustache from 'mustache';
import { bangkokDateOf, bangkokDateTimeOf } from '../../domain/bangkok-day.js';
import { statementLines, type MonthlyStatement } from '../../domain/statement.js';
import { bahtText } from '../../domain/tax-invoice.js';
import type { StatementRenderer } from '../../ports/documents.js';
import type { PdfPrinter } from './pdf-printer.js';
import { fontFaces } from './thai-font.js';

const template = readFileSync(new URL('./templates/statement.html', import.meta.url), 'utf8');
Mustache.parse(template);

/** Each line in Thai and English, as on the tax invoice. */
const lineNames: Record<string, string> = {
  opening_balance: 'ยอดยกมา / Opening balance',
  payments: 'รับชำระเงิน / Payments received',
  fees: 'ค่าธรรมเนียม / Fees',
  fee_vat: 'ภาษีมูลค่าเพิ่มของค่าธรรมเนียม / VAT on fees',
  refunds: 'คืนเงิน / Refunds',
  withdrawals: 'ถอนเงิน / Withdrawals',
  reversals: 'รายการคืนกลับ / Reversals',
  closing_balance: 'ยอดยกไป / Closing balance',
};

/** The statement as a page: every text escaped by Mustache, the fonts inline, nothing fetched. */
export function statementHtml(statement: MonthlyStatement, merchantName: string, faces = fontFaces(), asOf: Date | null = null): string {
  return Mustache.render(template, {
    fontFaces: faces,
    asOf: asOf && bangkokDateTimeOf(asOf).slice(0, 16),
    merchantName,
    merchantId: statement.merchantId,
    month: statement.month,
    from: bangkokDateOf(statement.periodStart),
    to: bangkokDateOf(new Date(statement.periodEnd.getTime() - 1)),
    lines: statementLines(statement).map((line) => ({
      name: lineNames[line.line] ?? line.line,
      count: line.count,
      amount: bahtText(line.amount),
      total: line.line === 'opening_balance' || line.line === 'closing_balance',
    })),
  });
}

/** Monthly statements as PDF: the page above, printed by `printer`. */
export function statementRenderer(printer: PdfPrinter): StatementRenderer {
  const faces = fontFaces();
  return { render: (statement, merchantName, asOf) => printer.print(statementHtml(statement, merchantName, faces, asOf ?? null)) };
}

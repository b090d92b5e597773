import type { AuditContext } from '../domain/audit.js';
import { notFound } from '../domain/errors.js';
import type { Merchant } from '../domain/merchant.js';
import type { Page, PageRequest } from '../domain/page.js';
import { buildStaticPromptPayPayload, UNHOLDABLE_PROMPTPAY_ACCOUNT } from '../domain/promptpay-payload.js';
import {
  assertBelowTillLimit,
  assertTillTakesPayments,
  closeTill as closed,
  renameTill as renamed,
  rollDisplayToken,
  tillName,
  type Till,
} from '../domain/till.js';
import type { Repositories } from '../ports/repositories.js';
import { recordAudit } from './audit.js';
import { payeeOf } from './create-qr-code.js';
import type { Services } from './services.js';

/**
 * A new till, with its static QR and its display's secret URL. At most 100 active tills per merchant: creations of one
 * merchant queue on its row, so the 101st is refused however many arrive at once.
 */
export async function createTill(tx: Repositories, s: Services, merchant: Merchant, request: { name: string }, context: AuditContext): Promise<Till> {
  const name = tillName(request.name);
  assertBelowTillLimit(await tx.tills.countActiveForCreation(merchant.id));
  const reference = s.ids.bankReference(); // from the bank references' space: the unique index keeps it apart from every QR code's
  const displayToken = s.accounts.tokens.token();
  const till: Till = {
    id: s.ids.next('till'),
    merchantId: merchant.id,
    name,
    status: 'active',
    reference,
    displayToken,
    staticQr: { qrCodeId: s.ids.next('qrCode'), qrData: staticQrData(s, merchant, reference) },
    createdAt: s.clock.now(),
    closedAt: null,
  };
  await tx.tills.insert(till, s.accounts.tokens.hash(displayToken));
  await recordAudit(tx, s, context, merchant.id, 'till_created', till.id, { name });
  return till;
}

/**
 * The till's static QR (no amount): a live merchant's pays the operator's biller id with the till's reference as ref1,
 * as dynamic live QR codes do; a test merchant's names the unpayable test proxy, so no real money can reach it.
 */
function staticQrData(s: Services, merchant: Merchant, reference: string): string {
  const payee = merchant.mode === 'test' ? { account: UNHOLDABLE_PROMPTPAY_ACCOUNT } : payeeOf(s, merchant);
  return buildStaticPromptPayPayload({ ...payee, reference });
}

/** The merchant's tills, closed ones too, newest first. */
export const listTills = (s: Services, merchant: Merchant, page: PageRequest): Promise<Page<Till>> => s.uow.repos.tills.list(merchant.id, page);

/** One of the merchant's tills; another merchant's is unknown (404 till_not_found). */
export async function retrieveTill(s: Services, merchant: Merchant, id: string): Promise<Till> {
  return (await s.uow.repos.tills.findById(merchant.id, id)) ?? Promise.reject(notFound('till_not_found', id));
}

async function lockedTill(tx: Repositories, merchant: Merchant, id: string): Promise<Till> {
  return (await tx.tills.findById(merchant.id, id, { lock: true })) ?? Promise.reject(notFound('till_not_found', id));
}

/** Closes a till: its display and its static QR stop; money still paid to its static QR is unmatched. Closing twice is harmless. */
export async function closeTill(tx: Repositories, s: Services, merchant: Merchant, id: string, context: AuditContext): Promise<Till> {
  const till = await lockedTill(tx, merchant, id);
  if (till.status === 'closed') return till;
  const after = closed(till, s.clock.now());
  await tx.tills.update(after, s.accounts.tokens.hash(after.displayToken));
  await recordAudit(tx, s, context, merchant.id, 'till_closed', id);
  return after;
}

/** A new display URL: the old token stops finding the till at once (its open streams end when they next look). */
export async function rollTillDisplayUrl(tx: Repositories, s: Services, merchant: Merchant, id: string, context: AuditContext): Promise<Till> {
  const after = rollDisplayToken(await lockedTill(tx, merchant, id), s.accounts.tokens.token());
  await tx.tills.update(after, s.accounts.tokens.hash(after.displayToken));
  await recordAudit(tx, s, context, merchant.id, 'till_display_url_rolled', id);
  return after;
}

/** A till's new name (1 to 50 characters), for the dashboard's Tills settings. */
export async function renameTill(tx: Repositories, s: Services, merchant: Merchant, id: string, name: string, context: AuditContext): Promise<Till> {
  const after = renamed(await lockedTill(tx, merchant, id), name);
  await tx.tills.update(after, s.accounts.tokens.hash(after.displayToken));
  await recordAudit(tx, s, context, merchant.id, 'till_renamed', id, { name: after.name });
  return after;
}

/** The customer display's till: the active till whose display token this is, or null (unknown, rolled or closed). */
export async function tillByDisplayToken(s: Services, token: string): Promise<Till | null> {
  if (token.length === 0 || token.length > 200) return null;
  return s.uow.repos.tills.findActiveByDisplayTokenHash(s.accounts.tokens.hash(token));
}

/** QR generation at a till: the merchant's active till, or 422 till_unavailable (unknown, another merchant's, closed). */
export async function tillTakingPayments(s: Services, merchant: Merchant, tillId: string): Promise<Till> {
  const till = await s.uow.repos.tills.findById(merchant.id, tillId);
  assertTillTakesPayments(till, tillId);
  return till;
}

import { Router } from 'express';
import type { components } from '@payment-qr/contract';
import { createCardPayment } from '../../../app/create-card-payment.js';
import { createQrCode } from '../../../app/create-qr-code.js';
import { listPayments, listTransactions, retrievePayment, retrieveRefund } from '../../../app/queries.js';
import { refundPayment, sendRefund } from '../../../app/refund-payment.js';
import type { Services } from '../../../app/services.js';
import { tillTakingPayments } from '../../../app/tills.js';
import type { Merchant } from '../../../domain/merchant.js';
import { settlePayment } from '../../../app/settle-payment.js';
import { errorResponse, jsonResponse } from '../errors.js';
import { followedBy, idempotentMutation, idempotentQrCodeWrite, type MutationRequest, type SendWire } from '../idempotency.js';
import { dateRangeOf, enumParam, pageRequestOf } from '../list-query.js';
import { toListBody, toPaymentBody, toQrCodeBody, toRefundBody, toTransactionBody } from '../mappers.js';
import { merchantOf } from '../request-context.js';
import { unknownWhenUnstorable } from './path-ids.js';

type Body<Name extends keyof components['schemas']> = components['schemas'][Name];

const paymentStatuses = ['pending', 'succeeded', 'failed', 'expired', 'refunded'] as const;
const transactionStatuses = ['succeeded', 'failed', 'pending', 'refunded'] as const;
const transactionTypes = ['payment', 'refund', 'failed'] as const;

const paymentIdOf = (req: { params: Record<string, unknown> }): string => String(req.params.payment_id);

/** POST /qr-codes, as Express and the hot routes (../hot-routes.ts) both serve it. */
export const createQrCodeRoute = (s: Services, publicBaseUrl: string, send?: SendWire) =>
  idempotentQrCodeWrite(
    s,
    'createQrCode',
    async ({ tx, merchant }, req) => {
      const body = req.body as Body<'CreateQrCodeRequest'>;
      const { qrCode, payment } = await createQrCode(tx, s, merchant, {
        amount: body.amount,
        currency: body.currency,
        reference: body.reference,
        description: body.description,
        expiryMinutes: body.expiry_minutes,
        clientName: body.client_name,
        clientBankName: body.client_bank_name,
        clientBankAccount: body.client_bank_account,
        metadata: body.metadata,
        returnUrl: body.return_url,
        tillId: body.till_id === undefined ? undefined : (await tillTakingPayments(s, merchant, body.till_id)).id,
      });
      return jsonResponse(200, toQrCodeBody(qrCode, payment, publicBaseUrl));
    },
    { send },
  );

/** GET /payments/{payment_id}, as Express and the hot routes both serve it. */
export const retrievePaymentBody =
  (s: Services) =>
  async (merchant: Merchant, paymentId: string): Promise<Body<'Payment'>> =>
    toPaymentBody(await retrievePayment(s, merchant, paymentId));

/** Thin routes: parse, call one use case, answer. The contract validator has already checked shapes. */
export function paymentRoutes(s: Services, publicBaseUrl: string): Router {
  const router = Router();
  unknownWhenUnstorable(router, { payment_id: 'payment_not_found', refund_id: 'refund_not_found' });

  router.post('/qr-codes', createQrCodeRoute(s, publicBaseUrl));

  router.get('/payments', async (req, res) => {
    const page = pageRequestOf(req);
    const tillId = typeof req.query.till_id === 'string' ? req.query.till_id : undefined;
    const filter = { ...dateRangeOf(req), status: enumParam(req, 'status', paymentStatuses), ...(tillId ? { tillId } : {}) };
    res.json(toListBody('payments', await listPayments(s, merchantOf(res), filter, page), page, toPaymentBody));
  });

  const retrieve = retrievePaymentBody(s);
  router.get('/payments/:payment_id', async (req, res) => {
    res.json(await retrieve(merchantOf(res), paymentIdOf(req)));
  });

  router.post(
    '/payments',
    idempotentMutation(s, 'createCardPayment', async ({ tx, merchant, requestId }, req) => {
      const body = req.body as Body<'CreateCardPaymentRequest'>;
      const result = await createCardPayment(tx, s, merchant, {
        tokenId: body.token_id,
        amount: body.amount,
        currency: body.currency,
        description: body.description,
        metadata: body.metadata,
      });
      return result.declined ? errorResponse(result.declined, requestId) : jsonResponse(200, toPaymentBody(result.payment));
    }),
  );

  const settle = (operation: string, outcome: (req: MutationRequest) => Parameters<typeof settlePayment>[4]) =>
    idempotentMutation(s, operation, async ({ tx, merchant, audit }, req) =>
      jsonResponse(200, toPaymentBody(await settlePayment(tx, s, merchant, paymentIdOf(req), outcome(req), audit))),
    );
  router.post(
    '/test/payments/:payment_id/succeed',
    settle('succeedTestPayment', (req) => {
      const payer = (req.body ?? {}) as Body<'SucceedTestPaymentRequest'>;
      return {
        kind: 'succeeded',
        payer: { clientName: payer.client_name, clientBankName: payer.client_bank_name, clientBankAccount: payer.client_bank_account },
      };
    }),
  );
  router.post(
    '/test/payments/:payment_id/fail',
    settle('failTestPayment', () => ({ kind: 'failed' })),
  );
  router.post(
    '/test/payments/:payment_id/expire',
    settle('expireTestPayment', () => ({ kind: 'expired' })),
  );

  router.post(
    '/refunds',
    idempotentMutation(s, 'createRefund', async ({ tx, merchant, audit }, req) => {
      const body = req.body as Body<'CreateRefundRequest'>;
      const refund = await refundPayment(tx, s, merchant, { paymentId: body.payment_id, amount: body.amount, reason: body.reason }, audit);
      return followedBy(jsonResponse(200, toRefundBody(refund)), async () => jsonResponse(200, toRefundBody(await sendRefund(s, merchant, refund))));
    }),
  );

  router.get('/refunds/:refund_id', async (req, res) => {
    res.json(toRefundBody(await retrieveRefund(s, merchantOf(res), String(req.params.refund_id))));
  });

  router.get('/transactions', async (req, res) => {
    const page = pageRequestOf(req);
    const filter = { ...dateRangeOf(req), status: enumParam(req, 'status', transactionStatuses), type: enumParam(req, 'type', transactionTypes) };
    res.json(toListBody('transactions', await listTransactions(s, merchantOf(res), filter, page), page, toTransactionBody));
  });

  return router;
}

import { Router } from 'express';
import type { components } from '@payment-qr/contract';
import type { Services } from '../../../app/services.js';
import { createTestTillPayment } from '../../../app/till-payments.js';
import { closeTill, createTill, listTills, retrieveTill, rollTillDisplayUrl } from '../../../app/tills.js';
import { jsonResponse } from '../errors.js';
import { idempotentMutation } from '../idempotency.js';
import { pageRequestOf } from '../list-query.js';
import { toListBody, toPaymentBody, toTillBody } from '../mappers.js';
import { merchantOf } from '../request-context.js';
import { unknownWhenUnstorable } from './path-ids.js';

type Schemas = components['schemas'];

const tillIdOf = (req: { params: Record<string, unknown> }): string => String(req.params.till_id);

/** Tills: thin routes over the use cases of app/tills.ts, and the test helper that pays a test till's static QR. */
export function tillRoutes(s: Services, publicBaseUrl: string): Router {
  const router = Router();
  unknownWhenUnstorable(router, { till_id: 'till_not_found' });
  const body = (till: Parameters<typeof toTillBody>[0]) => toTillBody(till, publicBaseUrl);

  router.post(
    '/tills',
    idempotentMutation(s, 'createTill', async ({ tx, merchant, audit }, req) => {
      const request = req.body as Schemas['CreateTillRequest'];
      return jsonResponse(200, body(await createTill(tx, s, merchant, { name: request.name }, audit)));
    }),
  );

  router.get('/tills', async (req, res) => {
    const page = pageRequestOf(req);
    res.json(toListBody('tills', await listTills(s, merchantOf(res), page), page, body));
  });

  router.get('/tills/:till_id', async (req, res) => {
    res.json(body(await retrieveTill(s, merchantOf(res), tillIdOf(req))));
  });

  router.post(
    '/tills/:till_id/close',
    idempotentMutation(s, 'closeTill', async ({ tx, merchant, audit }, req) => jsonResponse(200, body(await closeTill(tx, s, merchant, tillIdOf(req), audit)))),
  );

  router.post(
    '/tills/:till_id/display-url/roll',
    idempotentMutation(s, 'rollTillDisplayUrl', async ({ tx, merchant, audit }, req) =>
      jsonResponse(200, body(await rollTillDisplayUrl(tx, s, merchant, tillIdOf(req), audit))),
    ),
  );

  router.post(
    '/test/tills/:till_id/payments',
    idempotentMutation(s, 'createTestTillPayment', async ({ tx, merchant }, req) => {
      const request = req.body as Schemas['CreateTestTillPaymentRequest'];
      return jsonResponse(200, toPaymentBody(await createTestTillPayment(tx, s, merchant, tillIdOf(req), request.amount)));
    }),
  );

  return router;
}

import { Router } from 'express';
import type { components } from '@payment-qr/contract';
import type { Services } from '../../../app/services.js';
import { retrieveSlipVerification, slipOfTestPayment, verifySlip } from '../../../app/slip-verifications.js';
import { DomainError } from '../../../domain/errors.js';
import type { SlipVerification } from '../../../domain/slip-verification.js';
import type { SlipInput } from '../../../ports/bank.js';
import { errorResponse, jsonResponse } from '../errors.js';
import { followedBy, idempotentMutation } from '../idempotency.js';
import { merchantOf } from '../request-context.js';
import { unknownWhenUnstorable } from './path-ids.js';

type Body<Name extends keyof components['schemas']> = components['schemas'][Name];

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL = /^data:image\/[a-z]+;base64,/;

/** An image as base64 (a data: URL's prefix allowed, as a browser's FileReader writes it); anything else is refused. */
export function imageBytesOf(text: string): Buffer {
  const base64 = text.replace(DATA_URL, '').replace(/\s+/g, '');
  if (base64.length % 4 === 1 || !BASE64.test(base64)) throw new DomainError('invalid_parameters', 'image must be base64 (a PNG or JPEG).', 'image');
  return Buffer.from(base64, 'base64');
}

export function slipInputOf(body: { payload?: string; image?: string }): SlipInput {
  if ((body.payload === undefined) === (body.image === undefined))
    throw new DomainError('invalid_request', 'Send exactly one of payload (the slip QR text) and image (a photo of the slip).');
  return body.payload !== undefined ? { payload: body.payload } : { image: imageBytesOf(body.image!) };
}

const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** Whitelisted: the verdict and what the bank said of the slip, never the receiver's details. */
export const toSlipVerificationBody = (v: SlipVerification): Body<'SlipVerification'> => ({
  slip_verification_id: v.id,
  status: v.status,
  trans_ref: v.slip.transRef,
  sending_bank: v.slip.sendingBank,
  amount: v.amount,
  paid_at: isoOrNull(v.paidAt),
  payment_id: v.paymentId,
  first_verified_at: isoOrNull(v.firstVerifiedAt),
  created_at: v.createdAt.toISOString(),
});

/** Slip verification, and the test helper that writes a test payment's slip. */
export function slipRoutes(s: Services): Router {
  const router = Router();
  unknownWhenUnstorable(router, { slip_verification_id: 'slip_verification_not_found', payment_id: 'payment_not_found' });

  // The bank is asked after the idempotency key's transaction has committed (no outbound call under a lock); the
  // verdict's answer is then stored under the key. Should the request die first, a retry with the key is told to send
  // the slip again with a new key.
  router.post(
    '/slip-verifications',
    idempotentMutation(s, 'createSlipVerification', async ({ merchant, requestId }, req) => {
      const body = req.body as Body<'CreateSlipVerificationRequest'>;
      const slip = slipInputOf(body);
      const interrupted = errorResponse(
        new DomainError('service_unavailable', 'This slip verification did not finish; send the slip again with a new Idempotency-Key.'),
        requestId,
      );
      return followedBy(interrupted, async () => {
        try {
          const verification = await verifySlip(s, merchant, { slip, paymentId: body.payment_id, tillId: body.till_id, amount: body.amount });
          return jsonResponse(200, toSlipVerificationBody(verification));
        } catch (error) {
          if (error instanceof DomainError) return errorResponse(error, requestId);
          throw error;
        }
      });
    }),
  );

  router.get('/slip-verifications/:slip_verification_id', async (req, res) => {
    res.json(toSlipVerificationBody(await retrieveSlipVerification(s, merchantOf(res), String(req.params.slip_verification_id))));
  });

  router.post(
    '/test/payments/:payment_id/slip',
    idempotentMutation(s, 'createTestPaymentSlip', async ({ tx, merchant }, req) => {
      const { payload, image } = await slipOfTestPayment(tx, s, merchant, String(req.params.payment_id));
      return jsonResponse(200, { payload, image: image.toString('base64') } satisfies Body<'TestPaymentSlip'>);
    }),
  );

  return router;
}

import { Router } from 'express';
import { scannableQrCode } from '../../../app/queries.js';
import type { Services } from '../../../app/services.js';
import { DomainError } from '../../../domain/errors.js';
import { unknownWhenUnstorable } from './path-ids.js';

export type QrImageRenderer = (qrData: string, format: 'png' | 'svg', sizePx: number) => Promise<Buffer>;

/** The path qrImageRoute is mounted at: only requests under it enter the router. */
export const QR_IMAGE_BASE = '/Thai/qr-codes';

/** GET /Thai/qr-codes/{id}/image: public (for an <img> on a checkout page), PNG by default, SVG on request. */
export function qrImageRoute(s: Services, render: QrImageRenderer): Router {
  const router = Router();
  unknownWhenUnstorable(router, { qr_code_id: 'qr_code_not_found' });
  router.get('/:qr_code_id/image', async (req, res) => {
    const format = req.query.format ?? 'png';
    const size = req.query.size === undefined ? 300 : Number(req.query.size);
    if ((format !== 'png' && format !== 'svg') || !Number.isInteger(size) || size < 200 || size > 1000) {
      throw new DomainError(
        'invalid_parameters',
        'format must be png or svg, and size an integer from 200 to 1000 pixels.',
        format !== 'png' && format !== 'svg' ? 'format' : 'size',
      );
    }
    const qrCode = await scannableQrCode(s, String(req.params.qr_code_id));
    res.type(format === 'png' ? 'image/png' : 'image/svg+xml').setHeader('Cache-Control', 'private, max-age=60');
    res.send(await render(qrCode.qrData, format, size));
  });
  return router;
}

// The drawing of a QR code image, in plain JavaScript: the worker threads of qr-image-pool.ts load this file as it
// is (from the sources, under tsx or vitest, and from the bundle alike), and qr-image.ts calls it directly.
import { Buffer } from 'node:buffer';
import QRCode from 'qrcode';

const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 2 };

/** @param {{ qrData: string, format: 'png' | 'svg', sizePx: number }} task */
export default async function drawQrImage({ qrData, format, sizePx }) {
  if (!Number.isInteger(sizePx) || sizePx <= 0) throw new Error('QR image size must be a positive whole number of pixels');
  if (format === 'svg') return Buffer.from(await QRCode.toString(qrData, { ...QR_OPTIONS, type: 'svg', width: sizePx }), 'utf8');
  // qrcode floors width / modules * modules, which can lose a pixel to rounding; half a pixel keeps the exact size.
  return QRCode.toBuffer(qrData, { ...QR_OPTIONS, type: 'png', width: sizePx + 0.5 });
}

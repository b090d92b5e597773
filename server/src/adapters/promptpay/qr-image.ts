export type QrImageFormat = 'png' | 'svg';

const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;

export async function renderQrImage(qrData: string, format: QrImageFormat, sizePx: number): Promise<Buffer> {
  if (!Number.isInteger(sizePx) || sizePx <= 0) {
    throw new Error('QR image size must be a positive whole number of pixels');
  }
  // Loaded on the first image asked for: the API's other requests never draw one.
  const { default: QRCode } = await import('qrcode');
  if (format === 'svg') {
    const svg = await QRCode.toString(qrData, { ...QR_OPTIONS, type: 'svg', width: sizePx });
    return Buffer.from(svg, 'utf8');
  }
  // qrcode floors width / modules * modules, which can lose a pixel to rounding; half a pixel keeps the exact size.
  return QRCode.toBuffer(qrData, { ...QR_OPTIONS, type: 'png', width: sizePx + 0.5 });
}

import { describe, it, expect } from 'vitest';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { renderQrImage } from '../../src/adapters/promptpay/qr-image.js';
import { qrImagePool } from '../../src/adapters/promptpay/qr-image-pool.js';
import { buildPromptPayPayload } from '../../src/domain/promptpay-payload.js';

// jsqr is CommonJS typed as an ES default export, so under NodeNext the function sits on .default.
const jsQR = jsQRModule.default;

const qrData = buildPromptPayPayload({
  account: { kind: 'promptpay_id', id: '0812345678' },
  amountSatang: 150000,
  reference: 'QR8F3K2M9X',
});

function decodePng(image: Buffer): { width: number; height: number; text: string | undefined } {
  const png = PNG.sync.read(image);
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  return { width: png.width, height: png.height, text: code?.data };
}

describe('renderQrImage', () => {
  it.each([200, 201, 257, 300, 999, 1000])('renders a %ipx PNG that decodes to qr_data', async (sizePx) => {
    const image = await renderQrImage(qrData, 'png', sizePx);
    const decoded = decodePng(image);

    expect(decoded.width).toBe(sizePx);
    expect(decoded.height).toBe(sizePx);
    expect(decoded.text).toBe(qrData);
  });

  it('renders an SVG with the requested size', async () => {
    const svg = (await renderQrImage(qrData, 'svg', 300)).toString('utf8');

    expect(svg.startsWith('<svg') || svg.startsWith('<?xml')).toBe(true);
    expect(svg).toContain('<path');
    expect(svg).toContain('width="300"');
  });

  it('rejects a size that is not a positive whole number', async () => {
    await expect(renderQrImage(qrData, 'png', 0)).rejects.toThrow(Error);
    await expect(renderQrImage(qrData, 'png', 250.5)).rejects.toThrow(Error);
  });
});

describe('qrImagePool', () => {
  // Whether the event loop stays free while images are drawn is measured by `npm run drill -- images` (another
  // merchant's reads under 8 image fetches at a time); this says where the drawing happens, without a clock.
  it('draws on a worker thread, never on the event loop, the same image renderQrImage draws', async () => {
    const threads: number[] = [];
    const started = (worker: { threadId: number }) => threads.push(worker.threadId);
    process.on('worker', started);
    const pool = qrImagePool({ threads: 1 });
    try {
      const image = await pool.render(qrData, 'png', 300);

      expect(threads).toHaveLength(1);
      expect(image.equals(await renderQrImage(qrData, 'png', 300))).toBe(true);
    } finally {
      process.off('worker', started);
      await pool.close();
    }
  });
});

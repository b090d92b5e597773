import drawQrImage from './qr-image-drawing.mjs';

export type QrImageFormat = 'png' | 'svg';

/** Draws on the calling thread (the CLI, tests); the server draws through qrImagePool. */
export const renderQrImage = (qrData: string, format: QrImageFormat, sizePx: number): Promise<Buffer> => drawQrImage({ qrData, format, sizePx });

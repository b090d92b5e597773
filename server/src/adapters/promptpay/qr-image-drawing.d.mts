/** Draws one QR code image: the PNG or SVG bytes of `qrData`, `sizePx` wide and high. CPU-bound (~100 ms at 1000 px). */
export default function drawQrImage(task: { qrData: string; format: 'png' | 'svg'; sizePx: number }): Promise<Buffer>;

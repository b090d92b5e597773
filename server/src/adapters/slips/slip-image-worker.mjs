// Runs in a worker thread (./image-decoder.ts): decodes one PNG or JPEG and looks for a QR code in it, so a heavy image
// costs this thread's time, never the event loop's. Plain JavaScript: it runs as it is, from the sources and the bundle.
import { Buffer } from 'node:buffer';
import { parentPort } from 'node:worker_threads';
import jpeg from 'jpeg-js';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

const isPng = (bytes) => bytes.length >= 24 && bytes[0] === 0x89 && bytes.toString('latin1', 1, 4) === 'PNG';
const isJpeg = (bytes) => bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

/** The image's pixels (RGBA), or why there are none: not an image, or more pixels than allowed on a side. */
function pixelsOf(bytes, maxSide) {
  if (isPng(bytes)) {
    // The header says the size before anything is inflated: a huge image is refused unread.
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    if (width > maxSide || height > maxSide) return { problem: 'too_large' };
    const png = PNG.sync.read(bytes);
    return { data: new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), width: png.width, height: png.height };
  }
  if (isJpeg(bytes)) {
    const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: (maxSide * maxSide) / 1e6, maxMemoryUsageInMB: 256 });
    if (image.width > maxSide || image.height > maxSide) return { problem: 'too_large' };
    return { data: new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), width: image.width, height: image.height };
  }
  return { problem: 'not_an_image' };
}

parentPort.postMessage({ ready: true }); // its libraries loaded: the time limit of a job starts now

parentPort.on('message', ({ id, image, maxSide }) => {
  try {
    const pixels = pixelsOf(Buffer.from(image), maxSide);
    if (pixels.problem) return parentPort.postMessage({ id, problem: pixels.problem });
    const code = jsQR(pixels.data, pixels.width, pixels.height);
    parentPort.postMessage(code ? { id, text: code.data } : { id, problem: 'no_qr' });
  } catch (error) {
    // A damaged file, or one past jpeg-js's resolution and memory limits.
    parentPort.postMessage({ id, problem: /limit/i.test(String(error?.message)) ? 'too_large' : 'undecodable' });
  }
});

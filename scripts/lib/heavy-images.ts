/**
 * Images as heavy as a slip may be: the limits of POST /slip-verifications (2 MiB, 4000 x 4000 pixels) reached by
 * images that cost the decoder the most. Used by the slip tests and the images drill.
 */
import { randomBytes } from 'node:crypto';
import { PNG } from 'pngjs';

const LIMIT_BYTES = 2 * 1024 * 1024;

/** A PNG of random pixels: it compresses to nothing, so 2 MiB of it is as heavy as a PNG of that size gets. */
export function noisePng(bytes = LIMIT_BYTES): Buffer {
  const side = Math.ceil(Math.sqrt(bytes / 3));
  const png = new PNG({ width: side, height: side, colorType: 2 });
  randomBytes(side * side * 4).copy(png.data);
  const encoded = PNG.sync.write(png, { colorType: 2 });
  return encoded.length > LIMIT_BYTES ? noisePng(bytes - (encoded.length - LIMIT_BYTES) - 4096) : encoded;
}

/** A white square PNG of `side` pixels: small on the wire, `side` x `side` x 4 bytes once decoded. */
export function blankPng(side: number): Buffer {
  const png = new PNG({ width: side, height: side });
  png.data.fill(255);
  return PNG.sync.write(png);
}

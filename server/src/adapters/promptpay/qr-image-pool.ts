import { availableParallelism } from 'node:os';
import { LRUCache } from 'lru-cache';
import { Piscina } from 'piscina';
import { DomainError } from '../../domain/errors.js';
import type { QrImageFormat } from './qr-image.js';

export interface QrImageOptions {
  /** Threads drawing at once (default: one core left to the event loop, at most 2). */
  threads?: number;
  /** Drawings waiting for a thread; beyond them the answer is 503 (default 64). */
  maxQueue?: number;
  /** Bytes of images kept (default 32 MiB: a PNG of 1000 px is about 10 KiB). */
  maxBytes?: number;
  /** Told whether each image asked for was drawn or found already drawn. */
  onImage?: (source: 'drawn' | 'cache') => void;
}

export interface QrImages {
  render(qrData: string, format: QrImageFormat, sizePx: number): Promise<Buffer>;
  close(): Promise<void>;
}

const DRAWING = new URL('./qr-image-drawing.mjs', import.meta.url);
const IDLE_THREAD_MS = 30_000;
/** Piscina's error when maxQueue drawings already wait. */
const QUEUE_FULL = 'Task queue is at limit';

/**
 * QR code images as the public image route serves them: each (content, format, size) is drawn at most once while it
 * is kept (a cache bounded in bytes; requests for one being drawn wait for that drawing), and drawn on worker threads,
 * never on the event loop, so another merchant's requests do not wait behind ~100 ms of CPU per image. The threads
 * start with the first image and end after 30 s idle.
 */
export function qrImagePool(options: QrImageOptions = {}): QrImages {
  const pool = new Piscina<{ qrData: string; format: QrImageFormat; sizePx: number }, Uint8Array>({
    filename: DRAWING.href,
    minThreads: 0,
    maxThreads: options.threads ?? Math.max(1, Math.min(2, availableParallelism() - 1)),
    maxQueue: options.maxQueue ?? 64,
    idleTimeout: IDLE_THREAD_MS,
  });
  const kept = new LRUCache<string, Buffer>({ maxSize: options.maxBytes ?? 32 * 1024 * 1024, sizeCalculation: (image) => image.length });
  const drawing = new Map<string, Promise<Buffer>>();
  const tell = options.onImage ?? (() => undefined);

  async function draw(key: string, qrData: string, format: QrImageFormat, sizePx: number): Promise<Buffer> {
    try {
      const bytes = await pool.run({ qrData, format, sizePx });
      const image = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength); // structured clone hands back a Uint8Array
      kept.set(key, image);
      tell('drawn');
      return image;
    } catch (error) {
      if (error instanceof Error && error.message === QUEUE_FULL) {
        throw new DomainError('service_unavailable', 'Too many QR code images are being drawn right now; retry in a second.');
      }
      throw error;
    }
  }

  return {
    render(qrData, format, sizePx) {
      const key = `${format}:${sizePx}:${qrData}`;
      const image = kept.get(key);
      if (image) {
        tell('cache');
        return Promise.resolve(image);
      }
      const pending = drawing.get(key);
      if (pending) {
        tell('cache');
        return pending;
      }
      const drawn = draw(key, qrData, format, sizePx).finally(() => drawing.delete(key));
      drawing.set(key, drawn);
      return drawn;
    },
    close: () => pool.destroy(),
  };
}

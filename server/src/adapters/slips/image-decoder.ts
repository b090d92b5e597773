import { Worker } from 'node:worker_threads';

/** What reading one image found: a QR code's text, or why there is none. */
export type DecodedImage = { text: string } | { problem: 'not_an_image' | 'too_large' | 'undecodable' | 'no_qr' | 'timed_out' | 'busy' };

export interface ImageDecoderLimits {
  /** Images decoded at once, each in its own worker thread. */
  concurrency: number;
  /** Images waiting for a worker; one more is refused at once ('busy'). */
  maxWaiting: number;
  /** Time one image may take in its worker; past it the worker is ended ('timed_out'). */
  timeoutMs: number;
  /** Pixels on a side. */
  maxSide: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageDecoderLimits = { concurrency: 2, maxWaiting: 8, timeoutMs: 5_000, maxSide: 4_000 };

export interface ImageDecoder {
  decode(image: Buffer): Promise<DecodedImage>;
}

interface Job {
  image: Buffer;
  done(result: DecodedImage): void;
}

const WORKER_URL = new URL('./slip-image-worker.mjs', import.meta.url);

/**
 * QR codes read from images in worker threads, a few at a time, each within a time limit, with a bounded queue: a
 * heavy image costs a worker's time, never the event loop's, and a flood of them is refused rather than queued.
 */
export function workerImageDecoder(limits: ImageDecoderLimits = DEFAULT_IMAGE_LIMITS): ImageDecoder {
  const idle: Worker[] = [];
  const waiting: Job[] = [];
  let running = 0;
  let nextId = 0;

  /** A new worker, once it has loaded its libraries (a start under load is not counted against an image's time). */
  const newWorker = (): Promise<Worker> =>
    new Promise((resolve) => {
      const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: 256 } });
      worker.unref(); // an idle decoder never keeps the process alive
      worker.once('message', () => resolve(worker));
      worker.once('error', () => resolve(worker)); // its job then fails as undecodable
    });

  async function run(job: Job): Promise<void> {
    running++;
    const worker = idle.pop() ?? (await newWorker());
    const id = nextId++;
    let settled = false;
    const finish = (result: DecodedImage, reusable: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onError);
      if (reusable) idle.push(worker);
      else void worker.terminate();
      running--;
      job.done(result);
      const next = waiting.shift();
      if (next) void run(next);
    };
    const onMessage = (message: { id: number } & DecodedImage) => {
      if (message.id !== id) return;
      const { id: _id, ...result } = message;
      finish(result as DecodedImage, true);
    };
    const onError = () => finish({ problem: 'undecodable' }, false);
    const timer = setTimeout(() => finish({ problem: 'timed_out' }, false), limits.timeoutMs);
    worker.on('message', onMessage).on('error', onError).on('exit', onError);
    worker.postMessage({ id, image: job.image, maxSide: limits.maxSide });
  }

  return {
    decode: (image) =>
      new Promise<DecodedImage>((resolve) => {
        const job: Job = { image, done: resolve };
        if (running < limits.concurrency) void run(job);
        else if (waiting.length < limits.maxWaiting) waiting.push(job);
        else resolve({ problem: 'busy' });
      }),
  };
}

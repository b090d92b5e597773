import { DocumentsBusy } from '../../ports/documents.js';
import type { PdfPrinter } from './pdf-printer.js';

/** How many documents print at once in a process, and how many may wait their turn; beyond both: refused. */
export interface PrintBounds {
  atOnce: number;
  waiting: number;
}

/** DECISIONS, "Documents are rendered within bounds": 2 pages at a time; a short queue (each waits at most a few prints). */
export const PRINT_BOUNDS: PrintBounds = { atOnce: 2, waiting: 8 };

/** What the printer is doing, for /metrics and for the tests that hold it to its bounds. */
export interface PrintLoad {
  /** Documents printing now: a page each in the browser. */
  printing: number;
  /** Documents waiting for a place. */
  waiting: number;
  /** The most documents printing at once since the process started: never above `atOnce`. */
  mostAtOnce: number;
  printed: number;
  refused: number;
}

export interface BoundedPdfPrinter extends PdfPrinter {
  load(): PrintLoad;
}

/** Until a print has been timed, how long one is taken to last (for Retry-After). */
const FIRST_GUESS_MS = 2_000;

/**
 * A printer that prints at most `atOnce` documents at a time; up to `waiting` more wait in order, and any beyond are
 * refused at once with DocumentsBusy (503 with Retry-After): a burst of downloads costs a queue entry each, never
 * another page in the browser (each page costs tens of MiB, and 60 at once took the service to 6.9 GiB).
 */
export function boundedPdfPrinter(printer: PdfPrinter, bounds: PrintBounds = PRINT_BOUNDS): BoundedPdfPrinter {
  const queue: (() => void)[] = [];
  const load: PrintLoad = { printing: 0, waiting: 0, mostAtOnce: 0, printed: 0, refused: 0 };
  let averageMs = FIRST_GUESS_MS;

  /** Seconds until a place may be free: the queue ahead, in rounds of `atOnce` prints of the average length. */
  const retryAfterSeconds = () => Math.max(1, Math.ceil(((queue.length / bounds.atOnce + 1) * averageMs) / 1000));

  /** A place now (taken at once, before anything else can run), a place in the queue, or refused. */
  const takeTurn = (): Promise<void> => {
    if (load.printing < bounds.atOnce) {
      load.printing += 1;
      load.mostAtOnce = Math.max(load.mostAtOnce, load.printing);
      return Promise.resolve();
    }
    if (queue.length >= bounds.waiting) {
      load.refused += 1;
      return Promise.reject(new DocumentsBusy(retryAfterSeconds()));
    }
    return new Promise<void>((resolve) => queue.push(resolve)); // the place is handed over by passTurn
  };
  /** The place goes to the first in line (as many print as before), or is given back. */
  const passTurn = () => {
    const next = queue.shift();
    if (next) next();
    else load.printing -= 1;
  };

  return {
    async print(html) {
      await takeTurn();
      const started = performance.now();
      try {
        const pdf = await printer.print(html);
        load.printed += 1;
        averageMs = averageMs * 0.8 + (performance.now() - started) * 0.2;
        return pdf;
      } finally {
        passTurn();
      }
    },
    close: () => printer.close(),
    load: () => ({ ...load, waiting: queue.length }),
  };
}

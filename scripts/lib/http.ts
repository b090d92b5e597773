import type { IncomingMessage, ServerResponse } from 'node:http';

type AsyncHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** An async request handler for node:http whose failure destroys its response instead of escaping as an unhandled rejection. */
export const handled =
  (handler: AsyncHandler) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    handler(req, res).catch((error: unknown) => res.destroy(error instanceof Error ? error : new Error(String(error))));
  };

/** The whole body of a request, as text. */
export const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

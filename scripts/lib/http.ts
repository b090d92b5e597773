import type { IncomingMessage, ServerResponse } from 'node:http';

type AsyncHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** An async request handler for node:http whose failure destroys its response instead of escaping as an unhandled rejection. */
export const handled =
  (handler: AsyncHandler) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    handler(req, res).catch((error: unknown) => res.destroy(error instanceof Error ? error : new Error(String(error))));
  };

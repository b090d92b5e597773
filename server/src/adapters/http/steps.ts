import type { IncomingMessage } from 'node:http';
import type { Answer } from './errors.js';

export type Next = (error?: unknown) => void;

/**
 * One step of a request, in Express's middleware shape but on Node's own request and response, so that Express and
 * the hot lane (./hot-routes.ts) can run the same function: it calls `next()` to go on, or refuses by throwing (or
 * rejecting, or calling `next(error)`).
 */
export type Step = (req: IncomingMessage, res: Answer, next: Next) => void | Promise<void>;

/** Runs `steps` in order as Express's router would, then `done` once: with the first error, or with none. */
export function runSteps(steps: readonly Step[], req: IncomingMessage, res: Answer, done: Next): void {
  let index = 0;
  let ended = false;
  const next: Next = (error) => {
    if (ended) return;
    const step = steps[index++];
    if (error !== undefined || step === undefined) {
      ended = true;
      return done(error);
    }
    try {
      const running = step(req, res, next);
      if (running instanceof Promise) running.catch((reason: unknown) => next(reason ?? new Error('A step rejected without a reason.')));
    } catch (thrown) {
      next(thrown);
    }
  };
  next();
}

import type { IncomingMessage } from 'node:http';
import express from 'express';
import parseurl from 'parseurl';
import { DomainError } from '../../domain/errors.js';
import { startBodyDeadline } from '../pages/body-deadline.js';
import type { Step } from './steps.js';

const MAX_JSON_DEPTH = 32;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What PostgreSQL text and jsonb cannot store, or canonical JSON cannot express: NUL, lone surrogates, 1e999. */
const unstorableText = (text: string): boolean => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** Why a parsed body cannot be accepted, or null. Iterative, so no nesting can overflow the stack; values and their depths on two stacks (no pair per value). */
function flawOf(body: unknown): string | null {
  const values: unknown[] = [body];
  const depths: number[] = [0];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (depth > MAX_JSON_DEPTH) return `JSON may nest at most ${MAX_JSON_DEPTH} levels deep.`;
    if (typeof value === 'string' && unstorableText(value)) return 'Strings must be valid Unicode without NUL (\\u0000) characters.';
    if (typeof value === 'number' && !Number.isFinite(value)) return 'Numbers must be finite.';
    if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (unstorableText(key)) return 'Keys must be valid Unicode without NUL (\\u0000) characters.';
        values.push((value as Record<string, unknown>)[key]);
        depths.push(depth + 1);
      }
    }
  }
  return null;
}

/** The largest body read, in bytes (1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** The largest body of a slip verification: a 2 MiB image as base64 is 2.67 MiB. */
export const MAX_SLIP_BODY_BYTES = 3 * 1024 * 1024;

/** The one operation whose body may be larger: a slip verification carrying a photo. */
const takesLargeBody = (req: IncomingMessage): boolean => req.method === 'POST' && (parseurl(req)?.pathname ?? '').endsWith('/slip-verifications');

export const invalidJson = (): DomainError => new DomainError('invalid_json', 'The request body is not valid JSON.');

/**
 * A body read as UTF-8 text (by ./hot-routes.ts), parsed as the JSON parser below parses one: a BOM dropped, an object
 * or an array only, then checked for what cannot be stored.
 */
export function parseJsonText(text: string): { body: unknown } | { error: DomainError } {
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = json.trimStart()[0]; // JSON's whitespace is a subset of what trimStart drops; anything else fails JSON.parse
  if (json.length === 0) return { body: {} };
  let body: unknown;
  try {
    if (first !== '{' && first !== '[') throw new SyntaxError('not an object or array');
    body = JSON.parse(json);
  } catch {
    return { error: invalidJson() };
  }
  const flaw = flawOf(body);
  return flaw ? { error: new DomainError('invalid_request', flaw) } : { body };
}

/** A body the hot lane already read and parsed (or found late: 408), left for this step. */
export const PRE_READ = Symbol('pre-read body');
export type PreRead = IncomingMessage & { [PRE_READ]?: { body: unknown } | { error: DomainError }; body?: unknown };

/**
 * JSON bodies up to 1 MiB (3 MiB for a slip verification's photo), objects or arrays only, storable as they are,
 * arriving within `timeoutMs` (else 408). One step: read and parse, then check.
 */
export function jsonBody(timeoutMs: number): Step {
  const parseSmall = express.json({ limit: MAX_BODY_BYTES, strict: true });
  const parseLarge = express.json({ limit: MAX_SLIP_BODY_BYTES, strict: true });
  return (req: PreRead, res, next) => {
    const preRead = req[PRE_READ];
    if (preRead !== undefined) {
      if ('error' in preRead) return next(preRead.error);
      req.body = preRead.body;
      return next();
    }
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      // No body (a GET): what the parser would conclude, without its reading machinery (type-is's hasBody).
      if (!('body' in req)) req.body = undefined;
      return next();
    }
    const deadline = startBodyDeadline(req, res, timeoutMs, next);
    const parse = takesLargeBody(req) ? parseLarge : parseSmall;
    parse(req, res, (error?: unknown) => {
      deadline.stop();
      if (deadline.passed()) return; // answered already; this is the reader giving up on the closed connection
      if (error) return next(error);
      const flaw = flawOf(req.body);
      next(flaw ? new DomainError('invalid_request', flaw) : undefined);
    });
  };
}

/** What the body's reader (body-parser) refused, as ours; null for any other error. */
export function fromBodyParserError(error: unknown): DomainError | null {
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.parse.failed') return invalidJson();
  if (type === 'entity.too.large') {
    const limit = (error as { limit?: number }).limit === MAX_SLIP_BODY_BYTES ? '3 MiB' : '1 MiB';
    return new DomainError('payload_too_large', `The request body is larger than ${limit}.`);
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new DomainError('invalid_request', 'Send the body as UTF-8 JSON.');
  // Anything else the request itself got wrong (a body not in its Content-Encoding, a malformed URL escape).
  const status = (error as { status?: number } | null)?.status;
  if (status !== undefined && status >= 400 && status < 500) {
    return new DomainError('invalid_request', 'The request could not be read: check its Content-Encoding, charset and URL escapes.');
  }
  return null;
}

/** Path ids holding text PostgreSQL cannot compare name nothing that exists. */
export const isUnstorableId = (id: string): boolean => unstorableText(id);

import { readFileSync } from 'node:fs';
import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import { parse } from 'yaml';
import { contractPath } from '@payment-qr/contract';
import { DomainError } from '../../domain/errors.js';

interface Spec {
  servers?: { url: string }[];
  paths: Record<string, { servers?: { url: string }[] } & Record<string, unknown>>;
}

const basePathOf = (url: string): string => new URL(url, 'http://placeholder').pathname.replace(/\/+$/, '');

/**
 * The contract serves each path under its servers' base paths (root or path-level `servers`): each base path, with
 * the contract narrowed to the paths served under it (relative to it), longest base first so that /Thai/v1 comes
 * before the legacy /Thai.
 */
export function specsByBasePath(spec: Spec): { basePath: string; spec: Spec }[] {
  const paths = new Map<string, Spec['paths']>();
  for (const [path, item] of Object.entries(spec.paths)) {
    const { servers, ...operations } = item;
    for (const server of servers ?? spec.servers ?? [{ url: '/' }]) {
      const basePath = basePathOf(server.url);
      paths.set(basePath, { ...paths.get(basePath), [path]: operations });
    }
  }
  return [...paths]
    .sort(([a], [b]) => b.length - a.length)
    .map(([basePath, served]) => ({ basePath, spec: { ...spec, servers: [{ url: '/' }], paths: served } }));
}

let contract: Spec | undefined;
/** The contract, parsed once per process; shared, so never modified (clone it first). */
export const loadContract = (): Spec => (contract ??= parse(readFileSync(contractPath, 'utf8')) as Spec);

/** HEAD is served wherever GET is (./contract-methods.ts): the validator checks it as the GET it stands for. */
function withHead(spec: Spec): Spec {
  const paths = Object.fromEntries(Object.entries(spec.paths).map(([path, item]) => [path, item.get && !item.head ? { ...item, head: item.get } : item]));
  return { ...spec, paths };
}

const validatorOf = (spec: Spec, options: { validateResponses: boolean }): RequestHandler[] =>
  OpenApiValidator.middleware({
    apiSpec: structuredClone(withHead(spec)) as never, // it annotates the spec it is given
    useRequestUrl: true, // the path below the base path it is mounted at
    // Bodies are never coerced ("150000" is not an amount); query and path parameters always are.
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
    validateResponses: options.validateResponses
      ? {
          onError: (error) => {
            throw error;
          },
        }
      : false,
    validateSecurity: false,
    fileUploader: false, // the contract takes no multipart uploads: no multipart check on every request
    validateFormats: true,
    ignoreUndocumented: false,
  }) as unknown as RequestHandler[];

type BaseValidators = { basePath: string; validator: RequestHandler[] }[];

/** Built once per process for each setting: the contract does not change while it runs, and building one checks the whole contract and compiles its schemas (about 0.6 CPU s). */
const built = new Map<boolean, BaseValidators>();

/**
 * A validator for each base path, to be mounted there. Each knows only the paths served under its base: the validator
 * finds a request's operation by compiling and trying its paths one after another on every request, so the fewer the
 * cheaper. Bases serving the same paths (/Thai/v1 and its alias /v1) share one. Apps built in one process (a test's
 * servers) share them too: they keep nothing of a request once it is answered.
 */
export function contractValidators(options: { validateResponses: boolean }): BaseValidators {
  const known = built.get(options.validateResponses);
  if (known) return known;
  const shared = new Map<string, RequestHandler[]>();
  // Paths served at the origin itself (the bank's callback, the public pages) are outside the merchant API: their own routes answer them.
  const validators = specsByBasePath(loadContract())
    .filter(({ basePath }) => basePath !== '')
    .map(({ basePath, spec }) => {
      const paths = Object.keys(spec.paths).join(' ');
      const validator = shared.get(paths) ?? validatorOf(spec, options);
      shared.set(paths, validator);
      return { basePath, validator };
    });
  built.set(options.validateResponses, validators);
  return validators;
}

/**
 * Builds contractValidators() and waits until their compilation has ended. express-openapi-validator compiles the
 * contract in a chain of promises after its middleware is made, and holds the event loop all along: on a loaded 2-core
 * machine 1.6 to 2 s synchronous, then 2.7 to 4.1 s of promises (measured 2026-11-29). A server does this before it
 * opens the database (main.ts, startServer): a connection attempt made before it would have had its 5 s limit run out
 * during the compilation, its answer waiting unread (a kit's built server failed so; docs/testing.md). One turn of the
 * event loop is enough: a setImmediate callback runs only once every promise queued before it has settled, and the
 * chain waits for no I/O (the contract is an object in memory).
 */
export async function compileContractValidators(options: { validateResponses: boolean }): Promise<void> {
  contractValidators(options);
  await new Promise((resolve) => setImmediate(resolve));
}

interface ValidatorError {
  status?: number;
  path?: string;
  errors?: { path?: string; message?: string }[];
  message?: string;
}

/** Turns the validator's errors into the envelope's codes: 404/405 routes, 400 with the offending field named. */
export function fromValidatorError(error: unknown): DomainError | null {
  const e = error as ValidatorError;
  if (!e || typeof e.status !== 'number' || !Array.isArray(e.errors)) return null;
  if (e.status === 404) return new DomainError('route_not_found', 'No such route. See the API reference for the paths under /Thai/v1.');
  if (e.status === 405) return new DomainError('method_not_allowed', 'This route does not support that HTTP method.');
  if (e.status === 415) return new DomainError('invalid_request', 'Send the body as JSON with Content-Type: application/json.');
  if (e.status !== 400) return null;
  const first = e.errors[0] ?? {};
  const location = first.path ?? '';
  const field = location.replace(/^\/?(body|query|headers|params|path)\/?/, '').replace(/\//g, '.');
  // Header names come back lower-cased; name them as the contract spells them (Idempotency-Key).
  const param =
    (location.startsWith('/headers') ? field.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase()) : field) || undefined;
  const code = location.startsWith('/query') ? 'invalid_parameters' : 'invalid_request';
  return new DomainError(code, `${param ?? 'request'}: ${first.message ?? e.message ?? 'is invalid'}.`, param);
}

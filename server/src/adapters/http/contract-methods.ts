import type { RequestHandler } from 'express';
import { DomainError } from '../../domain/errors.js';
import { merchantApiResponse } from './response-headers.js';
import { loadContract, specsByBasePath } from './validation.js';

/** The methods an `Allow` header may name, in the order it names them. */
const METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface ServedPath {
  pattern: RegExp;
  methods: Set<string>;
  /** An operation there needs an API key: its answers are the merchant API's. */
  merchantApi: boolean;
}

interface Operation {
  security?: unknown[];
}

/** `{param}` segments match any one segment; as in Express's routing, case and a trailing slash do not matter. */
const patternOf = (basePath: string, template: string): RegExp =>
  new RegExp(
    `^${(basePath + template)
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}/?$`,
    'i',
  );

/** Every path the contract serves, under every base path it is served at, with its methods: HEAD wherever GET. */
function servedPaths(): ServedPath[] {
  const contract = loadContract() as unknown as { security?: unknown[] };
  return specsByBasePath(loadContract()).flatMap(({ basePath, spec }) =>
    Object.entries(spec.paths).map(([template, item]) => {
      const operations = Object.entries(item).filter(([method]) => METHODS.includes(method.toUpperCase())) as [string, Operation][];
      const methods = new Set(operations.map(([method]) => method.toUpperCase()));
      if (methods.has('GET')) methods.add('HEAD');
      const merchantApi = operations.some(([, operation]) => (operation.security ?? contract.security ?? []).length > 0);
      return { pattern: patternOf(basePath, template), methods, merchantApi };
    }),
  );
}

/**
 * A method the contract does not serve at a path it lists answers 405 method_not_allowed with `Allow`, before any
 * route, key check or body; HEAD passes wherever GET does (Express answers it with GET's headers and no body).
 */
export function contractMethods(): RequestHandler {
  const served = servedPaths();
  return (req, res, next) => {
    const matches = served.filter(({ pattern }) => pattern.test(req.path));
    if (matches.length === 0 || matches.some(({ methods }) => methods.has(req.method))) return next();
    const allow = METHODS.filter((method) => matches.some(({ methods }) => methods.has(method))).join(', ');
    if (matches.some(({ merchantApi }) => merchantApi)) merchantApiResponse(res);
    res.setHeader('Allow', allow);
    throw new DomainError('method_not_allowed', `${req.method} is not served here; this path serves ${allow}.`);
  };
}

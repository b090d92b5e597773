import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

export const CONTRACT_PATH = fileURLToPath(new URL('../../contract/openapi.yaml', import.meta.url));

type Json = Record<string, unknown>;
interface ServerEntry {
  url: string;
}
export interface Contract extends Json {
  servers: ServerEntry[];
  paths: Record<string, Json & { servers?: ServerEntry[]; parameters?: Json[] }>;
  components: Json & { responses: Record<string, Json>; parameters: Record<string, Json>; schemas: Record<string, Json> };
}

export const contract = parse(readFileSync(CONTRACT_PATH, 'utf8')) as Contract;

const basePathOf = (url: string): string => new URL(url).pathname.replace(/\/+$/, '');

const METHODS = ['get', 'post', 'delete', 'put', 'patch'] as const;

export interface DocumentedResponse {
  status: string;
  /** Media types and, for JSON, the body schema as a $ref into the contract. */
  content: Record<string, { schema?: Json }>;
  headers: Record<string, Json>;
}

export interface Operation {
  operationId: string;
  method: (typeof METHODS)[number];
  /** The contract's path template, e.g. /payments/{payment_id}. */
  path: string;
  /** The canonical served path template, e.g. /Thai/v1/payments/{payment_id}. */
  servedPath: string;
  parameters: Json[];
  requestSchema: Json | undefined;
  responses: Record<string, DocumentedResponse>;
  /** Operations without their own security use the contract's bearer key. */
  needsApiKey: boolean;
}

const deref = <T extends Json>(node: T): T => {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
  return deref((contract.components as Record<string, Record<string, Json>>)[kind!]![name!] as T);
};

/** The contract's hosted pages (checkout page, docs) answer HTML, not the API: the browser tests check them. */
const isHostedPage = (op: Json | undefined): boolean => ((op?.tags as string[] | undefined) ?? []).includes('Hosted pages');

/** Every API operation of the contract (the bank's callback too), with its parameters, request schema and documented responses resolved. */
export const operations: Operation[] = Object.entries(contract.paths).flatMap(([path, item]) =>
  METHODS.filter((method) => item[method] && !isHostedPage(item[method] as Json)).map((method) => {
    const op = item[method] as Json & { operationId: string; parameters?: Json[]; security?: unknown[]; requestBody?: Json; responses: Record<string, Json> };
    const base = basePathOf((item.servers ?? contract.servers)[0]!.url);
    const body = op.requestBody ? (deref(op.requestBody).content as Record<string, { schema: Json }>)['application/json']?.schema : undefined;
    const responses = Object.fromEntries(
      Object.entries(op.responses).map(([status, response]) => {
        const resolved = deref(response) as { content?: DocumentedResponse['content']; headers?: Record<string, Json> };
        return [status, { status, content: resolved.content ?? {}, headers: resolved.headers ?? {} }];
      }),
    );
    return {
      operationId: op.operationId,
      method,
      path,
      servedPath: `${base}${path}`,
      parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref),
      requestSchema: body,
      responses,
      needsApiKey: !(Array.isArray(op.security) && op.security.length === 0),
    };
  }),
);

/** What merchants call (through the SDK); the bank's confirmation callback is not: spec/bank-confirmation.test.ts checks it. */
export const merchantOperations: Operation[] = operations.filter((op) => op.operationId !== 'confirmBankPayment');

/** The operation a request goes to (any of its served paths), for failure messages. */
export function operationAt(method: string, path: string): Operation | undefined {
  const bare = path.split('?')[0]!;
  return operations.find(
    (op) =>
      op.method === method.toLowerCase() &&
      [op.servedPath, op.servedPath.replace(/^\/Thai\/v1\//, '/v1/')].some((served) => new RegExp(`^${served.replace(/\{\w+\}/g, '[^/]+')}$`).test(bare)),
  );
}

export const operation = (operationId: string): Operation => {
  const found = operations.find((op) => op.operationId === operationId);
  if (!found) throw new Error(`the contract has no operation ${operationId}`);
  return found;
};

// The contract is OpenAPI 3.1, whose schemas are JSON Schema 2020-12: Ajv reads them as they are.
const ajv = new Ajv2020.default({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(contract as object, 'contract');

const validators = new Map<string, ValidateFunction>();
/** A validator for a schema of the contract: a `#/components/...` $ref, or an inline schema whose refs point there. */
export function validatorFor(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    const rebased = JSON.parse(key.replace(/"#\/components\//g, '"contract#/components/')) as Json;
    validate = ajv.compile(rebased);
    validators.set(key, validate);
  }
  return validate;
}

/** What ajv's message leaves out and a reader needs: the property it found, the value it wanted, or the values it allows. */
const detailOf = (e: ErrorObject): string => {
  const params = e.params as Record<string, unknown>;
  if ('additionalProperty' in params) return ` '${String(params.additionalProperty)}'`;
  if ('allowedValues' in params) return ` (allowed: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})`;
  if ('allowedValue' in params) return ` (expected: ${JSON.stringify(params.allowedValue)})`;
  return '';
};

export const describeErrors = (errors: ErrorObject[] | null | undefined): string =>
  (errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}${detailOf(e)}`).join('; ');

export const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** The contract's own table of each error code's HTTP status and type. */
export const errorCodeTable = contract.components.schemas.ErrorCode as {
  'x-http-status-by-code': Record<string, number>;
  'x-error-type-by-code': Record<string, string>;
};

// Validates every example in openapi.yaml against its schema (Ajv, JSON Schema 2020-12) and checks the
// contract's house rules that a linter cannot express. Exits 1 listing each failure.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

// Optional argument: another document to check (used to test this script against broken copies).
const specPath = process.argv[2] ?? fileURLToPath(new URL('../openapi.yaml', import.meta.url));
const doc = parse(readFileSync(specPath, 'utf8')) as JsonObject;

const ERROR_SCHEMA_REF = '#/components/schemas/Error';
const REQUEST_ID_REF = '#/components/headers/RequestId';
const REPLAYED_SCHEMA_REF = '#/components/schemas/IdempotentReplayed';
const IDEMPOTENCY_KEY_REF = '#/components/parameters/IdempotencyKey';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
// Where component schemas live for Ajv: '#/components/schemas/X' is rewritten to SCHEMA_ROOT#/$defs/X.
const SCHEMA_ROOT = 'https://contract.invalid/openapi.json';

const failures: string[] = [];
let examplesChecked = 0;

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: Json | undefined): JsonObject {
  return isObject(value) ? value : {};
}

function component(section: string): JsonObject {
  return asObject(asObject(doc['components'])[section]);
}

/** Follows one local `$ref` (components of any kind); returns the node itself when it is not a ref. */
function deref(node: Json | undefined, where: string): JsonObject {
  if (!isObject(node)) return {};
  const ref = node['$ref'];
  if (typeof ref !== 'string') return node;
  const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);
  const target = match ? component(match[1] ?? '')[match[2] ?? ''] : undefined;
  if (!isObject(target)) {
    failures.push(`${where}: unresolvable $ref ${ref}`);
    return {};
  }
  return deref(target, where);
}

/** Deep copy with component-schema refs pointed at the Ajv root; other refs are reported. */
function rewriteRefs(node: Json, where: string): Json {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, where));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      const match = /^#\/components\/schemas\/([^/]+)$/.exec(value);
      if (!match) failures.push(`${where}: schema $ref ${value} does not point at components/schemas`);
      out[key] = match ? `${SCHEMA_ROOT}#/$defs/${match[1]}` : value;
    } else {
      out[key] = rewriteRefs(value, where);
    }
  }
  return out;
}

// Annotation keywords OpenAPI adds to JSON Schema, plus every x- extension used in the document.
function collectExtensionKeys(node: Json, found: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => collectExtensionKeys(item, found));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      collectExtensionKeys(value, found);
    }
  }
  return found;
}

const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
// ajv-formats is CommonJS; under NodeNext its default import is the module object, whose `default` is the plugin.
addFormatsModule.default(ajv);
for (const keyword of ['example', 'discriminator', 'xml', 'externalDocs', ...collectExtensionKeys(doc, new Set())]) {
  ajv.addKeyword(keyword);
}
ajv.addSchema({ $id: SCHEMA_ROOT, $defs: rewriteRefs(component('schemas'), 'components/schemas') as JsonObject });

const compiled = new Map<string, ValidateFunction>();
function validatorFor(schema: Json, where: string): ValidateFunction | undefined {
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached) return cached;
  try {
    const validate = ajv.compile(rewriteRefs(schema, where) as JsonObject);
    compiled.set(key, validate);
    return validate;
  } catch (error) {
    failures.push(`${where}: schema does not compile: ${(error as Error).message}`);
    return undefined;
  }
}

function checkExample(where: string, schema: Json | undefined, value: Json | undefined): void {
  examplesChecked += 1;
  if (schema === undefined) {
    failures.push(`${where}: example has no schema to validate against`);
    return;
  }
  const validate = validatorFor(schema, where);
  if (validate && !validate(value)) {
    failures.push(`${where}: ${ajv.errorsText(validate.errors, { dataVar: 'example' })}`);
  }
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_SINGLE = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];

/** Checks the `examples` (and deprecated `example`) of a schema and of every inline subschema. */
function walkSchema(schema: Json | undefined, where: string): void {
  if (!isObject(schema)) return;
  if ('example' in schema) checkExample(`${where}/example`, schema, schema['example']);
  const examples = schema['examples'];
  if (examples !== undefined) {
    if (!Array.isArray(examples)) failures.push(`${where}/examples: must be an array in a 3.1 schema`);
    else examples.forEach((example, i) => checkExample(`${where}/examples/${i}`, schema, example));
  }
  for (const key of SUBSCHEMA_MAPS) {
    for (const [name, sub] of Object.entries(asObject(schema[key]))) walkSchema(sub, `${where}/${key}/${name}`);
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((sub, i) => walkSchema(sub, `${where}/${key}/${i}`));
  }
  for (const key of SUBSCHEMA_SINGLE) walkSchema(schema[key], `${where}/${key}`);
}

/** `example` / `examples` of a parameter, header or media type, plus its inline schema's examples. */
function checkExampleHolder(holder: JsonObject, where: string): void {
  const schema = holder['schema'];
  if ('example' in holder) checkExample(`${where}/example`, schema, holder['example']);
  for (const [name, entry] of Object.entries(asObject(holder['examples']))) {
    const example = deref(entry, `${where}/examples/${name}`);
    if ('externalValue' in example) failures.push(`${where}/examples/${name}: externalValue is not checkable`);
    else if (!('value' in example)) failures.push(`${where}/examples/${name}: example without value`);
    else checkExample(`${where}/examples/${name}`, schema, example['value']);
  }
  if (isObject(schema) && !('$ref' in schema)) walkSchema(schema, `${where}/schema`);
}

function checkContent(content: Json | undefined, where: string): void {
  for (const [mediaType, media] of Object.entries(asObject(content))) {
    checkExampleHolder(asObject(media), `${where}/content/${mediaType}`);
  }
}

function checkParameterOrHeader(node: Json | undefined, where: string): void {
  if (!isObject(node) || '$ref' in node) return; // components are checked once, where they are defined
  checkExampleHolder(node, where);
  if (node['content'] !== undefined) checkContent(node['content'], where);
}

function checkResponse(node: Json | undefined, where: string): void {
  if (!isObject(node) || '$ref' in node) return;
  for (const [name, header] of Object.entries(asObject(node['headers']))) {
    checkParameterOrHeader(header, `${where}/headers/${name}`);
  }
  checkContent(node['content'], where);
}

function checkRequestBody(node: Json | undefined, where: string): void {
  if (!isObject(node) || '$ref' in node) return;
  checkContent(node['content'], where);
}

// --- components -------------------------------------------------------------------------------
for (const [name, schema] of Object.entries(component('schemas'))) walkSchema(schema, `components/schemas/${name}`);
for (const [name, parameter] of Object.entries(component('parameters'))) checkParameterOrHeader(parameter, `components/parameters/${name}`);
for (const [name, header] of Object.entries(component('headers'))) checkParameterOrHeader(header, `components/headers/${name}`);
for (const [name, response] of Object.entries(component('responses'))) checkResponse(response, `components/responses/${name}`);
for (const [name, body] of Object.entries(component('requestBodies'))) checkRequestBody(body, `components/requestBodies/${name}`);

// The documented code -> type and code -> status maps must cover exactly the ErrorCode enum.
const errorCodeSchema = asObject(component('schemas')['ErrorCode']);
const errorCodes = (errorCodeSchema['enum'] as string[] | undefined) ?? [];
const typeByCode = asObject(errorCodeSchema['x-error-type-by-code']);
const statusByCode = asObject(errorCodeSchema['x-http-status-by-code']);
for (const [label, map] of [
  ['x-error-type-by-code', typeByCode],
  ['x-http-status-by-code', statusByCode],
] as const) {
  const keys = Object.keys(map).sort().join(',');
  if (keys !== [...errorCodes].sort().join(',')) failures.push(`components/schemas/ErrorCode/${label}: keys differ from the enum`);
}

function exampleCount(media: Json): number {
  const holder = asObject(media);
  return ('example' in holder ? 1 : 0) + Object.keys(asObject(holder['examples'])).length;
}

function hasRef(node: Json | undefined, ref: string): boolean {
  return isObject(node) && node['$ref'] === ref;
}

/** Error responses: envelope schema, examples whose type and status match the code's documented ones. */
function checkErrorResponse(response: JsonObject, status: string, where: string): void {
  const media = asObject(asObject(response['content'])['application/json']);
  if (!hasRef(media['schema'], ERROR_SCHEMA_REF)) {
    failures.push(`${where}: ${status} response must use application/json with $ref ${ERROR_SCHEMA_REF}`);
    return;
  }
  const examples = Object.entries(asObject(media['examples'])).map(([name, entry]) => [name, deref(entry, where)['value']] as const);
  if ('example' in media) examples.push(['example', media['example']]);
  if (examples.length === 0) failures.push(`${where}: ${status} response has no example`);
  for (const [name, value] of examples) {
    const error = asObject(asObject(value)['error']);
    const code = String(error['code']);
    if (typeByCode[code] !== error['type']) failures.push(`${where}: example ${name}: type ${String(error['type'])} does not match code ${code}`);
    if (String(statusByCode[code]) !== status)
      failures.push(`${where}: example ${name}: code ${code} is documented as ${String(statusByCode[code])}, not ${status}`);
  }
}

// --- operations -------------------------------------------------------------------------------
/** Public pages (servers holding only the origin: checkout page, docs) are not API operations: no envelope rules. */
const isPublicPage = (item: JsonObject): boolean =>
  Array.isArray(item['servers']) && item['servers'].every((server) => new URL(String(asObject(server)['url'])).pathname === '/');

function checkOperations(section: 'paths' | 'webhooks'): number {
  let operations = 0;
  for (const [pathKey, rawItem] of Object.entries(asObject(doc[section]))) {
    const pathItem = asObject(rawItem);
    const base = `${section} ${pathKey}`;
    const pathParams = Array.isArray(pathItem['parameters']) ? pathItem['parameters'] : [];
    pathParams.forEach((parameter, i) => checkParameterOrHeader(parameter, `${base}/parameters/${i}`));

    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      operations += 1;
      const where = `${base}/${method}`;
      for (const field of ['operationId', 'summary', 'description']) {
        const value = operation[field];
        if (typeof value !== 'string' || value.trim() === '') failures.push(`${where}: missing ${field}`);
      }
      if (!Array.isArray(operation['tags']) || operation['tags'].length === 0) failures.push(`${where}: missing tags`);

      const params = Array.isArray(operation['parameters']) ? operation['parameters'] : [];
      params.forEach((parameter, i) => checkParameterOrHeader(parameter, `${where}/parameters/${i}`));

      const requestBody = deref(operation['requestBody'], where);
      checkRequestBody(operation['requestBody'], `${where}/requestBody`);
      const jsonBody = asObject(requestBody['content'])['application/json'];
      if (jsonBody !== undefined && exampleCount(jsonBody) === 0) {
        failures.push(`${where}: JSON request body has no example`);
      }

      const responses = asObject(operation['responses']);
      for (const [status, rawResponse] of Object.entries(responses)) {
        checkResponse(rawResponse, `${where}/responses/${status}`);
      }
      if (section === 'webhooks') continue; // the receiver's answers: no envelope, no Request-Id

      // The bank's callback is outside the merchant API: idempotent by the bank's transaction id, not Idempotency-Key.
      const merchantApi = !(Array.isArray(operation['security']) && operation['security'].length === 0);
      const isPost = method === 'post' && merchantApi;
      if (isPost) {
        if (!params.some((parameter) => hasRef(parameter, IDEMPOTENCY_KEY_REF))) failures.push(`${where}: POST without the IdempotencyKey parameter`);
        for (const status of ['409', '413']) if (!(status in responses)) failures.push(`${where}: POST without a ${status} response`);
      }
      const page = isPublicPage(pathItem);
      if (!page && (!('500' in responses) || !('503' in responses))) failures.push(`${where}: must list 500 and 503`);
      if (!page && !('400' in responses)) failures.push(`${where}: must list 400`);

      for (const [status, rawResponse] of Object.entries(responses)) {
        const response = deref(rawResponse, `${where}/responses/${status}`);
        const headers = asObject(response['headers']);
        if (!hasRef(headers['Request-Id'], REQUEST_ID_REF)) failures.push(`${where}/responses/${status}: missing Request-Id header`);
        if (/^[45]/.test(status)) {
          if (!page || asObject(response['content'])['application/json'] !== undefined) checkErrorResponse(response, status, `${where}/responses/${status}`);
        } else if (/^2/.test(status)) {
          if (isPost && !hasRef(asObject(headers['Idempotent-Replayed'])['schema'], REPLAYED_SCHEMA_REF))
            failures.push(`${where}/responses/${status}: POST success without Idempotent-Replayed header`);
          const json = asObject(response['content'])['application/json'];
          if (json !== undefined && exampleCount(json) === 0) {
            failures.push(`${where}/responses/${status}: JSON response has no example`);
          }
        }
      }
    }
  }
  return operations;
}

const pathOperations = checkOperations('paths');
const webhookOperations = checkOperations('webhooks');

if (pathOperations === 0) failures.push('paths: no operations found');

if (failures.length > 0) {
  console.error(`check-examples: ${failures.length} failure(s):`);
  for (const failure of failures) console.error(`  - ${failure}`);
  process.exit(1);
}
console.log(`check-examples: ${examplesChecked} example validations passed across ${pathOperations} operations and ${webhookOperations} webhooks.`);

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadContract, specsByBasePath } from './validation.js';

/**
 * The contract's JSON request body schema of one operation, compiled with the options the contract validator
 * (express-openapi-validator) compiles it with: JSON Schema 2020-12, formats checked, defaults filled in, nothing
 * coerced or removed. A body it accepts, that validator accepts too, and leaves the same.
 */
export function contractBodyValidator(operationId: string): (body: unknown) => boolean {
  const { ajv, pointer, operation } = operationSchemas(operationId, { useDefaults: true });
  if (!operation.requestBody?.content?.['application/json']?.schema) throw new Error(`${operationId} takes no JSON body`);
  return compiled(ajv, `${pointer}/requestBody/content/application~1json/schema`);
}

/**
 * Whether a JSON answer of an operation matches the schema the contract gives its status (or `default`): what the
 * contract validator checks of Express's answers when responses are validated (tests).
 */
export function contractAnswerValidator(operationId: string): (status: number, body: string) => boolean {
  const { ajv, pointer, operation } = operationSchemas(operationId, { useDefaults: false });
  const byStatus = new Map<string, (body: unknown) => boolean>();
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const json = response.$ref ? undefined : response.content?.['application/json'];
    const ref = response.$ref ? `contract${response.$ref}/content/application~1json/schema` : `${pointer}/responses/${status}/content/application~1json/schema`;
    if (json?.schema || response.$ref) byStatus.set(status, compiled(ajv, ref));
  }
  return (status, body) => {
    const validate = byStatus.get(String(status)) ?? byStatus.get('default');
    return validate !== undefined && validate(JSON.parse(body));
  };
}

interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: object }> };
  responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: object }> }>;
}

type Contract = { paths: Record<string, Record<string, Operation>> };

/** One Ajv per mode (request bodies get their defaults filled in, answers never), each holding the contract once. */
const ajvs = new Map<boolean, { ajv: Ajv2020; contract: Contract }>();

/** The contract as one schema document for Ajv, and where in it an operation is. */
function operationSchemas(operationId: string, options: { useDefaults: boolean }) {
  let compiler = ajvs.get(options.useDefaults);
  if (!compiler) {
    const contract = structuredClone(loadContract()) as unknown as Contract;
    const ajv = new Ajv2020({ ...EXPRESS_OPENAPI_VALIDATOR_OPTIONS, useDefaults: options.useDefaults });
    addFormats.default(ajv);
    ajv.addSchema({ ...contract, $id: 'contract' });
    compiler = { ajv, contract };
    ajvs.set(options.useDefaults, compiler);
  }
  const { ajv, contract } = compiler;
  for (const [path, item] of Object.entries(contract.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation?.operationId === operationId)
        return { ajv, operation, pointer: `contract#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}` };
    }
  }
  throw new Error(`no operation ${operationId} in the contract`);
}

/** As express-openapi-validator 5 compiles request schemas (its AjvOptions), bodies never coerced. */
const EXPRESS_OPENAPI_VALIDATOR_OPTIONS = {
  strict: false,
  strictNumbers: true,
  strictTuples: true,
  allowUnionTypes: false,
  validateSchema: false,
  coerceTypes: false,
  removeAdditional: false,
} as const;

function compiled(ajv: Ajv2020, ref: string): (value: unknown) => boolean {
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`cannot compile ${ref}`);
  return (value) => validate(value) as boolean;
}

/** The base paths (/Thai/v1, /v1, ...) the contract serves an operation under. */
export function operationBasePaths(operationId: string): string[] {
  return specsByBasePath(loadContract())
    .filter(({ spec }) =>
      Object.values(spec.paths).some((item) => Object.values(item).some((op) => (op as { operationId?: string } | undefined)?.operationId === operationId)),
    )
    .map(({ basePath }) => basePath);
}

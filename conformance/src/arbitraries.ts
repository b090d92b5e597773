import fc from 'fast-check';
import { contract } from './contract.js';

type Schema = Record<string, unknown>;
/** Arbitraries that replace the schema-derived one for a named property (the contract says more in prose). */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

const resolve = (schema: Schema): Schema => {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  return resolve(contract.components.schemas[ref.replace('#/components/schemas/', '')] as Schema);
};

const WRONG_TYPES: unknown[] = [null, 'text', '', 1.5, -1, 0, true, [], {}];

function stringOf(schema: Schema): fc.Arbitrary<string> {
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
  if (schema.format === 'date-time')
    return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'date')
    return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const short = fc.string({ minLength, maxLength: Math.min(maxLength ?? 40, 40) });
  // The documented maximum exactly, so the boundary is always in play.
  return maxLength === undefined ? short : fc.oneof(short, fc.string({ minLength: maxLength, maxLength }));
}

function integerOf(schema: Schema): fc.Arbitrary<number> {
  const range = schema['x-satang-range'] as { minimum: number; maximum: number } | undefined;
  if (range) {
    // Range violations are 422s, not schema errors: both sides of each bound are generated.
    return fc.oneof(
      { arbitrary: fc.integer({ min: range.minimum, max: range.maximum }), weight: 3 },
      { arbitrary: fc.integer({ min: -1000, max: range.minimum - 1 }), weight: 1 },
      { arbitrary: fc.integer({ min: range.maximum + 1, max: 2 ** 31 }), weight: 1 },
    );
  }
  return fc.integer({
    min: typeof schema.minimum === 'number' ? schema.minimum : -(2 ** 31),
    max: typeof schema.maximum === 'number' ? schema.maximum : 2 ** 31 - 1,
  });
}

function objectOf(schema: Schema, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  if (Object.keys(properties).length === 0) {
    // Free-form (metadata): a few JSON values.
    return fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }) as fc.Arbitrary<Record<string, unknown>>;
  }
  const record = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, hints[name] ?? valueOf(property, hints)]));
  return fc.record(record, { requiredKeys: (schema.required ?? []) as string[] }) as fc.Arbitrary<Record<string, unknown>>;
}

/** Values valid against a schema of the contract (plus the hinted values, which may be anything the prose allows). */
export function valueOf(raw: Schema, hints: Hints = {}): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => valueOf(alternative, hints)));
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => valueOf({ ...schema, type }, hints)));
  switch (schema.type) {
    case 'string':
      if (!Array.isArray(schema['x-allowed-values'])) return stringOf(schema);
      // Any other string is a 422: mostly the allowed value, sometimes not.
      return fc.oneof({ arbitrary: fc.constantFrom(...(schema['x-allowed-values'] as string[])), weight: 4 }, { arbitrary: stringOf(schema), weight: 1 });
    case 'integer':
      return integerOf(schema);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = valueOf(schema.items as Schema, hints);
      const constraints = { minLength: typeof schema.minItems === 'number' ? schema.minItems : 0, maxLength: 5 };
      return schema.uniqueItems ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(items, constraints);
    }
    default:
      return objectOf(schema, hints);
  }
}

/** Ways a client gets a body wrong: a required field dropped, a field of the wrong type or too long, an unknown field. */
export function mutationOf(raw: Schema, hints: Hints = {}): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  const valid = objectOf(schema, hints);
  const properties = Object.keys((schema.properties ?? {}) as object);
  const required = (schema.required ?? []) as string[];
  const tooLong = Object.entries((schema.properties ?? {}) as Record<string, Schema>).filter(([, p]) => typeof p.maxLength === 'number');
  const mutations: fc.Arbitrary<unknown>[] = [
    fc.tuple(valid, fc.string({ minLength: 1, maxLength: 12 })).map(([body, name]) => ({ ...body, [`x_${name}`]: 'unexpected' })),
    fc.constantFrom<unknown>(null, [], 'text', 42),
  ];
  if (properties.length > 0) {
    mutations.push(fc.tuple(valid, fc.constantFrom(...properties), fc.constantFrom(...WRONG_TYPES)).map(([body, name, value]) => ({ ...body, [name]: value })));
  }
  if (required.length > 0) {
    mutations.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([body, name]) => {
        const { [name]: _dropped, ...rest } = body;
        return rest;
      }),
    );
  }
  if (tooLong.length > 0) {
    mutations.push(fc.tuple(valid, fc.constantFrom(...tooLong)).map(([body, [name, p]]) => ({ ...body, [name]: 'x'.repeat((p.maxLength as number) + 1) })));
  }
  return fc.oneof(...mutations);
}

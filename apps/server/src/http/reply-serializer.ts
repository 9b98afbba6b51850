import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * How replies become JSON (docs/decisions/list-performance.md,
 * "Reply serializer"). A list reply (the contract's reply is an array) is written by
 * fast-json-stringify from the JSON Schema of the contract's own Zod schema
 * (`z.toJSONSchema`, output side: the schema the OpenAPI document publishes),
 * compiled once per call: no Zod pass over every value of every row. Like
 * Zod's, it sends only the fields the schema names (at every depth: a field
 * the presenter adds by mistake is dropped, never sent), and a missing
 * required field or a value of the wrong kind where it cannot be converted
 * (an object for a number, a string for an array) is a 500. Unlike Zod it
 * checks neither enums nor ranges nor formats: the presenters' types do, and
 * under the tests (VITEST) every such reply is checked by its Zod schema too,
 * so the suite stays as strict as before. Every other reply, and a list whose
 * schema has no JSON Schema (a transform, a date), goes through Zod as before.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const isNull = (v: unknown) => isObject(v) && v.type === 'null' && Object.keys(v).length === 1;

/**
 * `anyOf: [X, {type: 'null'}]` (Zod's `.nullable()`) as X with `null` among its
 * types: fast-json-stringify serializes that directly, while for an `anyOf` it
 * validates the value against each branch first (slower, and a nested object
 * carrying an extra field would then match no branch: a 500 instead of the
 * field left out). A `$ref` branch is inlined.
 */
function nullableAsTypes(node: unknown, defs: Json, inlining: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => nullableAsTypes(n, defs, inlining));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node))
    out[key] = nullableAsTypes(value, defs, inlining);
  unrequireAnything(out);
  const branches = out.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return out;
  const nullAt = branches.findIndex(isNull);
  if (nullAt < 0) return out;
  let other = branches[1 - nullAt] as unknown;
  if (isObject(other) && typeof other.$ref === 'string' && other.$ref.startsWith('#/$defs/')) {
    const name = other.$ref.slice('#/$defs/'.length);
    // A schema that contains itself keeps its reference (and its anyOf).
    if (inlining.includes(name) || !isObject(defs[name])) return out;
    other = nullableAsTypes(defs[name], defs, [...inlining, name]);
  }
  if (!isObject(other) || typeof other.type !== 'string') return out;
  if ('anyOf' in other || 'oneOf' in other || 'allOf' in other || '$ref' in other) return out;
  const { anyOf: _anyOf, ...rest } = out;
  return {
    ...rest,
    ...other,
    type: [other.type, 'null'],
    ...(Array.isArray(other.enum) ? { enum: [...(other.enum as unknown[]), null] } : {}),
  };
}

/** Keywords that restrict a value: a schema with none of them (`z.unknown()`) accepts anything. */
const RESTRICTING = ['type', 'anyOf', 'oneOf', 'allOf', '$ref', 'enum', 'const', 'not'];

/**
 * A property that accepts anything (`z.unknown()`) is listed as required, yet
 * Zod passes it undefined (and JSON leaves it out): fast-json-stringify would
 * refuse the reply, so it is not required here.
 */
function unrequireAnything(schema: Json): void {
  const { properties, required } = schema;
  if (!isObject(properties) || !Array.isArray(required)) return;
  schema.required = required.filter((key) => {
    const property = properties[key as string];
    return !isObject(property) || RESTRICTING.some((k) => k in property);
  });
}

/** The JSON Schema fast-json-stringify compiles for a reply schema, or null when Zod cannot write one. */
export function replyJsonSchema(schema: z.ZodType): Json | null {
  let json: Json;
  try {
    json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' }) as Json;
  } catch {
    return null;
  }
  const { $schema: _dialect, $defs, ...body } = json;
  const defs = isObject($defs) ? $defs : {};
  const out = nullableAsTypes(body, defs) as Json;
  if (Object.keys(defs).length === 0) return out;
  return { ...out, $defs: nullableAsTypes(defs, defs) as Json };
}

/**
 * The serializer of a list reply (an array schema) by fast-json-stringify, or
 * null for a reply Zod keeps writing. `check`: also check every reply with the
 * Zod schema (a wrong value is then a 500, as with Zod alone); on under the tests.
 */
export function fastListSerializer(
  schema: z.ZodType,
  check = process.env.VITEST !== undefined,
): ((data: unknown) => string) | null {
  if (!(schema instanceof z.ZodArray)) return null;
  const json = replyJsonSchema(schema);
  if (json === null) return null;
  const write = fastJson(json as unknown as Parameters<typeof fastJson>[0]);
  if (!check) return (data) => write(data);
  return (data) => {
    z.encode(schema, data as never);
    return write(data);
  };
}

/**
 * The routes' serializer compiler: the 200 reply of a list call by
 * fast-json-stringify, everything else (other replies, error replies) by Zod.
 */
export function replySerializerCompiler(route: {
  schema: unknown;
  method: string;
  url: string;
  httpStatus?: string;
}): (data: unknown) => string {
  if (route.httpStatus === '200' && route.schema instanceof z.ZodType) {
    const fast = fastListSerializer(route.schema);
    if (fast !== null) return fast;
  }
  return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
}

import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';

/** The fuzz test's bad values and the requests made of them (fuzz.test.ts says what the test is). */

/** Fixed, so a failure replays; FUZZ_SEED and FUZZ_RUNS explore further (`FUZZ_SEED=7 npx vitest ...`). */
export const SEED = Number(process.env.FUZZ_SEED ?? 20_260_610);
/** Bad values per body field and per query parameter, as the Administrator. */
export const PER_FIELD = Number(process.env.FUZZ_RUNS ?? 10);
/** Requests in flight at once (a 2-core machine). */
export const POOL = 4;
export const HUGE = 'A'.repeat(1_000_000);
export const DEEP_ARRAY = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
export const DEEP_OBJECT = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;

export const INJECTIONS = [
  "' OR 1=1--",
  "'; drop table users; --",
  '" OR ""="',
  '1; select pg_sleep(0)--',
  '../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '{{7*7}}',
  '${7*7}',
  '<script>alert(1)</script>',
  '%00',
  '\\',
  '{"$gt": ""}',
  'field__contains=x^y|z',
  '__proto__',
];

/** A bad value as raw JSON text (so NaN, Infinity and 1e309 can be sent as they are). */
export const rawJson = (value: unknown) => JSON.stringify(value);
export const badJsonValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...INJECTIONS).map(rawJson),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\ud83d', '').map(rawJson),
  fc.constant(rawJson(HUGE)),
  fc.constantFrom(DEEP_ARRAY, DEEP_OBJECT),
  fc.constantFrom(
    'NaN',
    'Infinity',
    '-Infinity',
    '1e309',
    '-1e309',
    '-0',
    '-1',
    '0',
    '9007199254740993',
    '18446744073709551616',
    '1e30',
    '-9999999999999',
    '0.5',
  ),
  fc.constantFrom('true', 'null', '{}', '[]', '[null]', '[1,"a",{}]', '{"a":{"b":[]}}'),
  fc.string({ unit: 'binary', maxLength: 40 }).map(rawJson),
  fc.array(fc.constantFrom(...INJECTIONS), { maxLength: 3 }).map(rawJson),
);

/** A bad query value, already encoded for the URL. */
export const badQueryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...INJECTIONS).map(encodeURIComponent),
  fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%F0%9F', '%', '%zz', '%FF%FE'),
  fc.constant(encodeURIComponent('A'.repeat(100_000))),
  fc.constantFrom('NaN', 'Infinity', '1e309', '-0', '-1', '0', '99999999999999999999999', '0x10'),
  fc.constantFrom('', 'true', '[]', '{}', 'null', 'undefined'),
  fc.string({ unit: 'binary', maxLength: 30 }).map(encodeURIComponent),
);

export const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/octet-stream',
];

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  default?: unknown;
}

export interface Operation {
  id: string;
  /** The call takes a token only (device uploads), not the session cookie. */
  tokenOnly: boolean;
  method: string;
  path: string;
  query: { name: string; required: boolean; schema: JsonSchema }[];
  body?: JsonSchema;
}

export interface FuzzRequest {
  what: string;
  tokenOnly: boolean;
  method: string;
  url: string;
  payload?: string;
  contentType?: string;
}

/**
 * The requests for one operation: a plausible valid request made from the OpenAPI
 * document's `schemas` (with the organization's `known` values) with one thing broken.
 */
export function fuzzer(schemas: Record<string, JsonSchema>, known: Record<string, unknown>) {
  const resolve = (s: JsonSchema): JsonSchema => {
    let out = s;
    while (out.$ref) out = schemas[out.$ref.replace('#/components/schemas/', '')] ?? {};
    return out;
  };

  /** A plausible valid value of the schema (the organization's real ids where a field names one). */
  function sample(schema: JsonSchema, name?: string, depth = 0): unknown {
    if (name !== undefined && name in known) return known[name];
    const s = resolve(schema);
    if (depth > 6) return null;
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum[0];
    if (s.default !== undefined) return s.default;
    const variants = s.anyOf ?? s.oneOf;
    if (variants) {
      const first = variants.find((v) => resolve(v).type !== 'null') ?? variants[0]!;
      return sample(first, name, depth + 1);
    }
    if (s.allOf) return sample(s.allOf[0]!, name, depth + 1);
    const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
    switch (type) {
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [key, prop] of Object.entries(s.properties ?? {})) {
          out[key] = sample(prop, key, depth + 1);
        }
        return out;
      }
      case 'array':
        return s.items ? [sample(s.items, undefined, depth + 1)] : [];
      case 'integer':
      case 'number':
        return s.minimum !== undefined ? Math.max(s.minimum, Math.min(1, s.maximum ?? 1)) : 1;
      case 'boolean':
        return false;
      case 'string':
        if (s.format === 'date-time') return new Date().toISOString();
        if (s.format === 'email') return 'fuzz@example.test';
        if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
        return 'fuzz';
      default:
        return 'fuzz';
    }
  }

  /** A value of another JSON type than the schema's. */
  function wrongType(schema: JsonSchema): string {
    const s = resolve(schema);
    const type = Array.isArray(s.type) ? s.type[0] : (s.type ?? (s.anyOf ? 'mixed' : 'string'));
    if (type === 'string') return '12345';
    if (type === 'number' || type === 'integer') return '"12.5abc"';
    if (type === 'array') return '"not an array"';
    if (type === 'object') return '[1,2]';
    if (type === 'boolean') return '"yes"';
    return '{"unexpected":[true]}';
  }

  const queryString = (q: Record<string, string>) =>
    Object.entries(q)
      .map(([k, v]) => `${encodeURIComponent(k)}=${v}`)
      .join('&');

  function baseQuery(op: Operation): Record<string, string> {
    const q: Record<string, string> = {};
    for (const p of op.query) {
      const v = sample(p.schema, p.name);
      q[p.name] = encodeURIComponent(Array.isArray(v) ? v.join(',') : String(v));
    }
    return q;
  }

  /** The requests that break one thing each, for one operation. */
  function requestsFor(op: Operation, perField: number, seed: number): FuzzRequest[] {
    const out: FuzzRequest[] = [];
    const query = baseQuery(op);
    const url = (q: Record<string, string>, path = op.path) => {
      const qs = queryString(q);
      return qs ? `${path}?${qs}` : path;
    };
    const pick = <T>(arb: fc.Arbitrary<T>, n: number, offset: number) =>
      fc.sample(arb, { seed: seed + offset, numRuns: n });
    const withBody = op.method !== 'GET' && op.method !== 'DELETE';

    // Query: each parameter broken, missing, repeated, given as an object.
    op.query.forEach((p, i) => {
      const rest = { ...query };
      delete rest[p.name];
      out.push({
        tokenOnly: op.tokenOnly,
        what: `query ${p.name} missing`,
        method: op.method,
        url: url(rest),
      });
      out.push({
        tokenOnly: op.tokenOnly,
        what: `query ${p.name} repeated`,
        method: op.method,
        url: `${url(query)}&${encodeURIComponent(p.name)}=x`,
      });
      out.push({
        tokenOnly: op.tokenOnly,
        what: `query ${p.name}[a]`,
        method: op.method,
        url: url({ ...rest, [`${p.name}[a]`]: '1' }),
      });
      for (const value of pick(badQueryValue, perField, i)) {
        out.push({
          tokenOnly: op.tokenOnly,
          what: `query ${p.name}=${value.slice(0, 60)}`,
          method: op.method,
          url: url({ ...query, [p.name]: value }),
        });
      }
    });
    // An unknown parameter with a hostile value.
    out.push({
      tokenOnly: op.tokenOnly,
      what: 'unknown query parameter',
      method: op.method,
      url: url({ ...query, "x' OR 1=1--": '%00' }),
    });

    // Path: traversal, NUL, a long segment, a bad escape.
    for (const suffix of ['..%2F..%2Fetc%2Fpasswd', '%00', 'A'.repeat(5000), '%ff%fe/', '%']) {
      out.push({
        tokenOnly: op.tokenOnly,
        what: `path +${suffix.slice(0, 20)}`,
        method: op.method,
        url: op.path + suffix,
      });
    }

    if (!withBody) return out;
    const schema = op.body ? resolve(op.body) : undefined;
    const base = (schema ? sample(schema) : {}) as Record<string, unknown>;
    const json = (body: unknown) => JSON.stringify(body ?? null);
    const send = (what: string, payload: string, contentType = 'application/json') =>
      out.push({
        what,
        tokenOnly: op.tokenOnly,
        method: op.method,
        url: url(query),
        payload,
        contentType,
      });

    // The unbroken request (so the handler runs with the organization's real ids), then
    // the whole body: not JSON, deep, huge, of the wrong shape, of the wrong type.
    send('valid base', json(base));
    send('invalid JSON', '{"a":');
    send('NaN body', '{"a": NaN}');
    send('empty body', '');
    send('deep array body', DEEP_ARRAY);
    send('deep object body', DEEP_OBJECT);
    send('huge string body', rawJson(HUGE));
    for (const shape of ['null', '[]', '"text"', '123', 'true', '[{}]'])
      send(`body ${shape}`, shape);
    for (const type of CONTENT_TYPES) send(`content-type ${type}`, json(base), type);
    send('no content-type', json(base), '');

    if (!schema?.properties) return out;
    const props = Object.entries(schema.properties);
    props.forEach(([name, prop], i) => {
      const rest = { ...base };
      delete rest[name];
      send(`body ${name} missing`, json(rest));
      // The bad value goes in as raw JSON text at the field's place.
      const marker = `__fuzz_${i}__`;
      const template = json({ ...base, [name]: marker });
      const put = (raw: string) => template.replace(`"${marker}"`, () => raw);
      send(`body ${name} wrong type`, put(wrongType(prop)));
      for (const raw of pick(badJsonValue, perField, 1000 + i)) {
        send(`body ${name}=${raw.slice(0, 60)}`, put(raw));
      }
    });
    // Every field broken at once.
    send(
      'body every field wrong type',
      `{${props.map(([name, prop]) => `${JSON.stringify(name)}:${wrongType(prop)}`).join(',')}}`,
    );
    return out;
  }

  return { requestsFor };
}

/** Runs the requests `POOL` at a time; answers the 5xx ones, described in one short line each. */
export async function run(
  requests: FuzzRequest[],
  send: (r: FuzzRequest) => Promise<LightMyRequestResponse>,
): Promise<{ failures: string[]; statuses: Map<number, number> }> {
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const r = requests[next++]!;
      // A request the app cannot answer at all (a throw out of inject) counts as a 5xx.
      const { status, body } = await send(r).then(
        (res) => ({ status: res.statusCode, body: res.body }),
        (error: unknown) => ({ status: 599, body: String(error) }),
      );
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status >= 500) {
        failures.push(
          `${r.method} ${r.url.slice(0, 120)} [${r.what.slice(0, 120)}]: ${status} ${body.slice(0, 120)}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: POOL }, worker));
  return { failures, statuses };
}

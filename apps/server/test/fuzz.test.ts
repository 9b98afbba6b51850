import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarms } from '../src/db/schema-shipments';
import { createTestApp, TEST_PASSWORD, type TestApp, type TestClient } from './helpers';
import { scannedShipment } from './shipment-factories';

/**
 * The fuzz test (issue 10, "Done when"): every operation of the OpenAPI document
 * the app publishes (GET /api/schema/) gets generated bad input in its body, its
 * query and its path, as the Administrator of a populated organization (so the
 * handlers are reached) and as an anonymous visitor. No request may answer 5xx.
 *
 * Each request starts from a plausible valid request (made from the schema, with
 * the organization's real ids for the fields that name one) and breaks one thing:
 * a field of the wrong type or missing, NUL bytes and lone surrogates, a 1 MB
 * string, 10,000 levels of nesting, NaN, Infinity, 1e309, -0, huge and negative
 * integers, injection strings (SQL, path traversal, templates, HTML), invalid JSON
 * and wrong content types. fast-check picks the bad values with a fixed seed, so a
 * failure replays; the failures print short (what was sent, cut to 120 characters).
 */

/** Fixed, so a failure replays; FUZZ_SEED and FUZZ_RUNS explore further (`FUZZ_SEED=7 npx vitest ...`). */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_610);
/** Bad values per body field and per query parameter, as the Administrator. */
const PER_FIELD = Number(process.env.FUZZ_RUNS ?? 10);
/** Requests in flight at once (a 2-core machine). */
const POOL = 4;
const HUGE = 'A'.repeat(1_000_000);
const DEEP_ARRAY = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;

const INJECTIONS = [
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
const rawJson = (value: unknown) => JSON.stringify(value);
const badJsonValue: fc.Arbitrary<string> = fc.oneof(
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
const badQueryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...INJECTIONS).map(encodeURIComponent),
  fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%F0%9F', '%', '%zz', '%FF%FE'),
  fc.constant(encodeURIComponent('A'.repeat(100_000))),
  fc.constantFrom('NaN', 'Infinity', '1e309', '-0', '-1', '0', '99999999999999999999999', '0x10'),
  fc.constantFrom('', 'true', '[]', '{}', 'null', 'undefined'),
  fc.string({ unit: 'binary', maxLength: 30 }).map(encodeURIComponent),
);

const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/octet-stream',
];

interface JsonSchema {
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

interface Operation {
  id: string;
  /** The call takes a token only (device uploads), not the session cookie. */
  tokenOnly: boolean;
  method: string;
  path: string;
  query: { name: string; required: boolean; schema: JsonSchema }[];
  body?: JsonSchema;
}

interface FuzzRequest {
  what: string;
  tokenOnly: boolean;
  method: string;
  url: string;
  payload?: string;
  contentType?: string;
}

describe('fuzz: every operation of the OpenAPI document with bad input answers no 5xx', () => {
  let t: TestApp;
  let admin: TestClient;
  /** The Administrator's user token, for the calls that take a token only. */
  let token: string;
  let operations: Operation[];
  let schemas: Record<string, JsonSchema>;
  /** Real values of the organization, by field name. */
  let known: Record<string, unknown>;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({ role: 'Administrator' });
    admin = signedIn.client;
    const org = signedIn.orgs[0]!;
    const member = await t.createUser({ role: 'Operator', orgs: [org] });
    const { recordId, sn } = await scannedShipment(admin, [5, 9, 9, 5, 1, 1, 5], 'FUZZ');
    const [alarm] = await t.db
      .select()
      .from(alarms)
      .where(eq(alarms.recordId, Number(recordId)));
    const made = async (path: string, body: Record<string, unknown>) => {
      const res = await admin.post(path, body);
      expect(res.statusCode, `${path} ${res.body}`).toBe(200);
      return res.json() as Record<string, unknown>;
    };
    const carrier = await made('/api/products/carrier-definitions/', { name: 'Fuzz carrier' });
    const product = await made('/api/products/product-definitions/', { product_name: 'Fuzz' });
    const location = await made('/api/products/travel-locations/', {
      name: 'Fuzz depot',
      address: '1 Fuzz Street',
      latitude: 52,
      longitude: 4,
    });
    const key = await made('/api/keys/generate/', { name: 'fuzz key' });
    const setting = await made('/api/notifications/settings/', {
      notification_type: 'Alarm',
      status: 'Test',
      to_list: ['qa@example.test'],
    });
    const roles = (await admin.get('/api/auth/role-permissions/')).json() as {
      id: string;
      name: string;
    }[];
    const report = await made('/api/devices/xt1/reports/csv/', { record_id: recordId });
    token = String((await made('/api/auth/tokens/', { name: 'fuzz device' })).token);
    known = {
      record_id: recordId,
      record_ids: [recordId],
      alarm_ids: [String(alarm!.id)],
      tag_id: sn,
      tag_serial_number: sn,
      tag_id_or_serial_number: sn,
      tag_ids: [sn],
      organization_id: org.id,
      id: org.id,
      role_id: roles.find((r) => r.name === 'Viewer')!.id,
      user_id: member.id,
      users: [member.id],
      prefix: key.prefix,
      carrier_id: String(carrier.id),
      product_id: String(product.id),
      travel_location_id: String(location.id),
      setting_id: String(setting.id),
      report_id: new URL(String(report.localUrl), 'http://x').searchParams.get('report_id'),
      email: 'fuzz@example.test',
      email_or_username: signedIn.user.username,
      password: TEST_PASSWORD,
      old_password: TEST_PASSWORD,
      timezone: 'UTC',
      degrees_unit: 'C',
      client_type: 'WEB',
      comment: 'fuzz',
    };

    const res = await t.inject({ method: 'GET', url: '/api/schema/' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { schemas: Record<string, JsonSchema> };
    };
    schemas = doc.components.schemas;
    operations = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const params = (op.parameters ?? []) as {
          in: string;
          name: string;
          required?: boolean;
          schema: JsonSchema;
        }[];
        const body = (op.requestBody as { content?: Record<string, { schema: JsonSchema }> })
          ?.content?.['application/json']?.schema;
        const security = (op.security ?? []) as Record<string, unknown>[];
        operations.push({
          id: String(op.operationId ?? `${method} ${path}`),
          tokenOnly:
            security.some((s) => 'tokenAuth' in s) && !security.some((s) => 'sessionCookie' in s),
          method: method.toUpperCase(),
          path,
          query: params
            .filter((p) => p.in === 'query')
            .map((p) => ({ name: p.name, required: p.required ?? false, schema: p.schema })),
          ...(body ? { body } : {}),
        });
      }
    }
    // Sign-out last: it ends the Administrator's session.
    operations.sort((a, b) => Number(a.id === 'authLogout') - Number(b.id === 'authLogout'));
  }, 60_000);
  afterAll(() => t.close());

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

  /** Runs the requests `POOL` at a time; answers the 5xx ones, described in one short line each. */
  async function run(
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

  const viaClient = (client: TestClient) => (r: FuzzRequest) =>
    client.request({
      method: r.method as 'GET',
      url: r.url,
      ...(r.payload !== undefined ? { payload: r.payload } : {}),
      ...(r.contentType !== undefined
        ? { headers: r.contentType === '' ? {} : { 'content-type': r.contentType } }
        : {}),
    });

  /** The Administrator: the session cookie, or the user token where the call takes a token only. */
  const asAdmin = (r: FuzzRequest) =>
    r.tokenOnly
      ? t.inject({
          method: r.method as 'GET',
          url: r.url,
          headers: {
            authorization: `Token ${token}`,
            ...(r.contentType ? { 'content-type': r.contentType } : {}),
          },
          ...(r.payload !== undefined ? { payload: r.payload } : {}),
        })
      : viaClient(admin)(r);

  it('reads every operation of the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(100);
    expect(operations.filter((o) => o.body).length).toBeGreaterThan(40);
  });

  it('as the Administrator of a populated organization: no 5xx', async () => {
    const requests = operations.flatMap((op, i) => requestsFor(op, PER_FIELD, SEED + i * 7919));
    const { failures, statuses } = await run(requests, asAdmin);
    console.info(
      `fuzz as the Administrator: ${requests.length} requests`,
      Object.fromEntries(statuses),
    );
    expect(failures, `${failures.length} of ${requests.length} requests`).toEqual([]);
    // The handlers were reached: the session held (few 401s), and many requests went through.
    const count = (test: (status: number) => boolean) =>
      [...statuses].filter(([status]) => test(status)).reduce((n, [, c]) => n + c, 0);
    expect(requests.length).toBeGreaterThan(3000);
    expect(count((s) => s === 401)).toBeLessThan(requests.length / 50);
    expect(count((s) => s >= 200 && s < 300)).toBeGreaterThan(200);
  }, 180_000);

  it('as an anonymous visitor: no 5xx', async () => {
    const requests = operations.flatMap((op, i) => requestsFor(op, 1, SEED + 1 + i * 7919));
    const { failures, statuses } = await run(requests, viaClient(t.client()));
    console.info(`fuzz as anonymous: ${requests.length} requests`, Object.fromEntries(statuses));
    expect(failures, `${failures.length} of ${requests.length} requests`).toEqual([]);
  }, 120_000);
});

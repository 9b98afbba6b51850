import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarms } from '../src/db/schema-shipments';
import { createTestApp, TEST_PASSWORD, type TestApp, type TestClient } from './helpers';
import { scannedShipment } from './shipment-factories';
import {
  fuzzer,
  PER_FIELD,
  run,
  SEED,
  type FuzzRequest,
  type JsonSchema,
  type Operation,
} from './fuzz-requests';

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

describe('fuzz: every operation of the OpenAPI document with bad input answers no 5xx [FEAT-INPUT-SAFETY]', () => {
  let t: TestApp;
  let admin: TestClient;
  /** The Administrator's user token, for the calls that take a token only. */
  let token: string;
  let operations: Operation[];
  let schemas: Record<string, JsonSchema>;
  /** Real values of the organization, by field name. */
  let known: Record<string, unknown>;
  let requestsFor: ReturnType<typeof fuzzer>['requestsFor'];

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
    ({ requestsFor } = fuzzer(schemas, known));
  }, 60_000);
  afterAll(() => t.close());

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

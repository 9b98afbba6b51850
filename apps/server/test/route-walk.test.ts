import { allCalls, BUILT_IN_ROLES, type CallDef } from '@coldtrace/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema';
import { apiKeys } from '../src/db/schema-access';
import { alarms, records, tags } from '../src/db/schema-shipments';
import { createTestApp, TEST_PASSWORD, uid, type TestApp, type TestClient } from './helpers';
import { deviceUser, epoch, iso, serial, xt1Body, type TokenClient } from './shipment-factories';

/**
 * The permission walk (issue 5, item 7): every call of the contract's route
 * table, made as an anonymous visitor, as a Viewer of the victim
 * organization, as an Administrator (session and user token) of another
 * organization and with another organization's API key. Requests carry
 * valid-shaped bodies naming the victim organization's ids, so a 2xx would
 * be a real leak. Expected: 401, 403 or 404; the exceptions below say why.
 */

/** Calls anyone may make, and why that is safe. */
const PUBLIC_CALLS: Record<string, string> = {
  authCsrf: 'hands out the CSRF token the sign-in form needs',
  authLogin: 'signing in (throttled; wrong credentials answer 400)',
  authLogout: 'ends the caller’s own session, if any',
  authPublicLogin: 'the configured public account only (404 when none is configured)',
  authTosGet: 'the terms of use are shown before sign-in',
  authPrivacyPolicyGet: 'the privacy policy is shown before sign-in',
  authPasswordReset: 'same reply whether the address exists or not',
  authPasswordResetConfirm: 'needs the uuid and token of a live reset link',
  authPasswordResetValidate: 'needs the uuid and token of a live reset link',
};

const OK = (status: number) => status >= 200 && status < 300;
const REFUSED = (status: number) => [401, 403, 404].includes(status);

const permissionsOf = (call: CallDef): string[] =>
  call.permission === undefined
    ? []
    : typeof call.permission === 'string'
      ? [call.permission]
      : [...call.permission];

/** Logout last: it ends the caller's session. */
const CALLS = [...allCalls].sort(
  (a, b) => Number(a.operationId === 'authLogout') - Number(b.operationId === 'authLogout'),
) as CallDef[];

interface Victim {
  orgId: string;
  orgName: string;
  recordId: string;
  serial: string;
  alarmId: string;
  userId: string;
  adminEmail: string;
  roleId: string;
  carrier: Record<string, unknown>;
  product: Record<string, unknown>;
  travelLocation: Record<string, unknown>;
  keyPrefix: string;
}

interface VictimRequest {
  query?: Record<string, string>;
  body?: unknown;
}

/** Requests naming the victim's data, for the calls that take an id. */
function victimRequests(v: Victim): Record<string, VictimRequest> {
  const now = epoch(new Date());
  const strip = ({ id: _id, ...rest }: Record<string, unknown>) => rest;
  const tagBody = (overrides: Record<string, unknown> = {}) =>
    xt1Body(v.serial, { start_time_seconds: now - 7200, ...overrides });
  return {
    authSessionSwitch: { body: { id: v.orgId } },
    productsCarrierDefinitionsUpdate: {
      query: { carrier_id: String(v.carrier.id) },
      body: strip(v.carrier),
    },
    productsProductDefinitionsUpdate: {
      query: { product_id: String(v.product.id) },
      body: strip(v.product),
    },
    productsTravelLocationsUpdate: {
      query: { travel_location_id: String(v.travelLocation.id) },
      body: strip(v.travelLocation),
    },
    xt1Record: { query: { record_id: v.recordId } },
    xt1LatestRecord: { query: { tag_id_or_serial_number: v.serial } },
    xt1RecordActions: { query: { record_ids: v.recordId } },
    xt1RecordScans: { query: { record_ids: v.recordId } },
    aggregateLocations: { query: { record_ids: v.recordId } },
    aggregateRecordTemperatures: { query: { record_ids: v.recordId } },
    xt1ScanUpload: { body: tagBody({ temps: [5, 5, 5] }) },
    xt1StartAction: { body: tagBody() },
    xt1StopAction: { body: tagBody({ record_id: v.recordId }) },
    xt1ConfigureAction: { body: tagBody() },
    xt1CreateShipmentAction: { body: tagBody({ primary_reference: 'STOLEN' }) },
    xt1UpdateShipmentAction: {
      body: tagBody({ record_id: v.recordId, primary_reference: 'STOLEN' }),
    },
    xt1TripEdit: { body: { record_id: v.recordId, begin_time: iso(now - 3600) } },
    xt1AlarmAcknowledge: {
      body: {
        record_ids: [v.recordId],
        alarm_ids: [v.alarmId],
        comment: 'not mine',
        client_type: 'WEB',
        // The caller's own signature: every test user has TEST_PASSWORD.
        password: TEST_PASSWORD,
        meaning: 'REVIEWED',
      },
    },
    xt1AlarmDismiss: { body: { record_ids: [v.recordId], client_type: 'WEB' } },
    xt1AlarmRecipients: {
      body: { record_id: v.recordId, alarm_recipients: ['thief@example.test'] },
    },
    xt1ReportPdfCreate: { body: { record_id: v.recordId } },
    xt1ReportCsvCreate: { body: { record_id: v.recordId } },
    xt1ReportXlsxCreate: { body: { record_id: v.recordId } },
    authUsersRegister: {
      body: {
        username: `intruder_${uid()}`,
        first_name: 'In',
        last_name: 'Truder',
        email: `intruder_${uid()}@example.test`,
        organization_id: v.orgId,
        role_id: v.roleId,
      },
    },
    authUserRoles: { body: { user_id: v.userId, role_id: v.roleId } },
    authUserLock: { body: { user_id: v.userId, is_locked: true } },
    keysRevoke: { body: { prefix: v.keyPrefix } },
    xt1AssignTags: { body: { organization_id: v.orgId, tag_ids: [v.serial] } },
  };
}

/** Valid-shaped filler for calls without a victim id (the guard decides before the body matters). */
function fillerRequest(call: CallDef): VictimRequest {
  if (call.method === 'GET' || call.method === 'DELETE') return {};
  return { body: {} };
}

function urlOf(call: CallDef, query?: Record<string, string>): string {
  return query ? `${call.path}?${new URLSearchParams(query).toString()}` : call.path;
}

describe('route walk: no call answers 2xx to a caller without the permission or the organization', () => {
  let t: TestApp;
  let victim: Victim;
  let markers: string[];
  let requests: Record<string, VictimRequest>;

  beforeAll(async () => {
    t = await createTestApp();
    const orgName = `Victim ${uid()}`;
    const org = await t.createOrg(orgName);
    const owner = await deviceUser(t, { role: 'Administrator', orgs: [org] });
    const admin = owner.client;
    const adminRow = await t.createUser({ role: 'Administrator', orgs: [org] });
    const member = await t.createUser({ role: 'Operator', orgs: [org] });

    // A record of the victim's tag with an alarm above 8 °C (rows written directly, so the
    // walk does not depend on the ingest pipeline).
    const sn = serial('VICTIM');
    const [tag] = await t.db
      .insert(tags)
      .values({ organizationId: org.id, serialNumber: sn, tagType: 'XT1_NFC_MU', running: true })
      .returning();
    const [record] = await t.db
      .insert(records)
      .values({
        organizationId: org.id,
        tagId: tag!.id,
        tagSerialNumber: sn,
        tagType: 'XT1_NFC_MU',
        measurementInterval: 60,
        startTimeSeconds: epoch(new Date()) - 3600,
        highThreshold: 8,
        lowThreshold: 2,
      })
      .returning();
    const recordId = String(record!.id);
    const [alarm] = await t.db
      .insert(alarms)
      .values({
        organizationId: org.id,
        recordId: record!.id,
        tagId: tag!.id,
        tagSerialNumber: sn,
        kind: 'excursion',
        aboveOrBelow: 'ABOVE',
        firstPointIdx: 1,
        lastPointIdx: 2,
        degreeMinutes: 2,
        duration: 120,
      })
      .returning();
    const alarmId = String(alarm!.id);

    const create = async (path: string, body: Record<string, unknown>) => {
      const res = await admin.post(path, body);
      expect(res.statusCode, `${path} ${res.body}`).toBe(200);
      return res.json() as Record<string, unknown>;
    };
    const carrier = await create('/api/products/carrier-definitions/', {
      name: `Victim carrier ${uid()}`,
    });
    const product = await create('/api/products/product-definitions/', {
      product_name: `Victim product ${uid()}`,
      high_threshold: 8,
      low_threshold: 2,
    });
    const travelLocation = await create('/api/products/travel-locations/', {
      name: `Victim depot ${uid()}`,
      address: '1 Victim Street',
      latitude: 52.1,
      longitude: 4.3,
    });
    const roles = (await admin.get('/api/auth/role-permissions/')).json() as {
      id: string;
      name: string;
    }[];
    const key = await create('/api/keys/generate/', { name: 'victim key' });

    victim = {
      orgId: org.id,
      orgName,
      recordId,
      serial: sn,
      alarmId,
      userId: member.id,
      adminEmail: adminRow.email,
      roleId: roles.find((r) => r.name === 'Administrator')!.id,
      carrier,
      product,
      travelLocation,
      keyPrefix: String(key.prefix),
    };
    markers = [
      org.id,
      orgName,
      sn,
      adminRow.email,
      member.email,
      String(carrier.name),
      String(product.product_name),
      String(travelLocation.name),
      String(key.prefix),
    ];
    requests = victimRequests(victim);
  });
  afterAll(() => t.close());

  const leaked = (res: LightMyRequestResponse) => markers.filter((m) => res.body.includes(m));

  type Send = (call: CallDef, req: VictimRequest) => Promise<LightMyRequestResponse>;
  const viaClient =
    (client: TestClient): Send =>
    (call, req) =>
      client.request({
        method: call.method,
        url: urlOf(call, req.query),
        ...(req.body !== undefined ? { payload: req.body } : {}),
      });
  const viaHeaders =
    (headers: Record<string, string>): Send =>
    (call, req) =>
      t.inject({
        method: call.method,
        url: urlOf(call, req.query),
        headers,
        ...(req.body !== undefined ? { payload: req.body as object } : {}),
      });

  /** Walks every call; answers the problems found ("METHOD path: status ..."). */
  async function walk(
    send: Send,
    expectation: (call: CallDef, res: LightMyRequestResponse, explicit: boolean) => string | null,
  ): Promise<string[]> {
    const problems: string[] = [];
    for (const call of CALLS) {
      const explicit = requests[call.operationId];
      const res = await send(call, explicit ?? fillerRequest(call));
      const problem = expectation(call, res, explicit !== undefined);
      if (problem) {
        problems.push(
          `${call.method} ${call.path}: ${res.statusCode} ${problem} ${res.body.slice(0, 160)}`,
        );
      }
    }
    return problems;
  }

  it('the public calls are exactly the listed exceptions', () => {
    const publicCalls = CALLS.filter((c) => c.auth === 'public').map((c) => c.operationId);
    expect(publicCalls.sort()).toEqual(Object.keys(PUBLIC_CALLS).sort());
  });

  it('anonymous: every non-public call answers 401 (403 for a missing CSRF token)', async () => {
    const problems = await walk(viaClient(t.client()), (call, res) => {
      if (call.auth === 'public') return leaked(res).length > 0 ? `leaks ${leaked(res)}` : null;
      return REFUSED(res.statusCode) ? null : 'anonymous call not refused';
    });
    expect(problems).toEqual([]);
  });

  it('a Viewer of the organization: every call needing a permission a Viewer lacks is refused', async () => {
    const { client } = await t.signIn({ role: 'Viewer', orgs: [{ id: victim.orgId, name: '' }] });
    const held = new Set<string>(BUILT_IN_ROLES.Viewer);
    const problems = await walk(viaClient(client), (call, res) => {
      const needed = permissionsOf(call);
      const lacks =
        call.serverAdmin === 'only' || (needed.length > 0 && !needed.some((p) => held.has(p)));
      if (lacks && !REFUSED(res.statusCode)) return `Viewer lacks ${needed.join('|')}`;
      return null;
    });
    expect(problems).toEqual([]);
  });

  /** Another organization's Administrator: refused on the victim's ids, no victim data anywhere. */
  const crossOrganization =
    (label: string) =>
    (call: CallDef, res: LightMyRequestResponse, explicit: boolean): string | null => {
      if (explicit && !REFUSED(res.statusCode)) return `${label} reached the victim's data`;
      const found = OK(res.statusCode) ? leaked(res) : [];
      return found.length > 0 ? `${label} sees ${found.join(', ')}` : null;
    };

  it("another organization's Administrator (session): refused on every victim id", async () => {
    const { client } = await t.signIn({ role: 'Administrator' });
    expect(await walk(viaClient(client), crossOrganization('other org session'))).toEqual([]);
  });

  it("another organization's Administrator (user token): refused on every victim id", async () => {
    const { device } = await deviceUser(t, { role: 'Administrator' });
    const token = (device as TokenClient).token;
    const problems = await walk(
      viaHeaders({ authorization: `Token ${token}` }),
      crossOrganization('other org token'),
    );
    expect(problems).toEqual([]);
  });

  it("another organization's API key: only key authentication answers, for its own organization", async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const key: string = (await client.post('/api/keys/generate/', { name: 'other' })).json()
      .private_key;
    const both: Record<string, string>[] = [
      { authorization: `Api-Key ${key}` },
      { 'x-api-key': key },
    ];
    for (const headers of both) {
      const problems = await walk(viaHeaders(headers), (call, res) => {
        if (call.auth === 'public') return null;
        if (call.auth === 'key') {
          if (res.statusCode !== 200) return 'key authentication refused a live key';
          return res.json().organization.id === orgs[0]!.id ? null : 'wrong organization';
        }
        return REFUSED(res.statusCode) ? null : 'an API key reached a non-key call';
      });
      expect(problems).toEqual([]);
    }
  });

  it('after every walk the victim data is unchanged', async () => {
    const [alarm] = await t.db
      .select()
      .from(alarms)
      .where(eq(alarms.id, Number(victim.alarmId)));
    expect(alarm, JSON.stringify(alarm)).toMatchObject({ acknowledged: false, dismissed: false });
    const [tag] = await t.db.select().from(tags).where(eq(tags.serialNumber, victim.serial));
    expect(tag!.organizationId).toBe(victim.orgId);
    const [member] = await t.db.select().from(users).where(eq(users.id, victim.userId));
    expect(member!.isLocked).toBe(false);
    const [key] = await t.db.select().from(apiKeys).where(eq(apiKeys.prefix, victim.keyPrefix));
    expect(key!.revokedAt).toBeNull();
    const [record] = await t.db
      .select()
      .from(records)
      .where(eq(records.id, Number(victim.recordId)));
    expect(record!.primaryReference ?? null).not.toBe('STOLEN');
  });
});

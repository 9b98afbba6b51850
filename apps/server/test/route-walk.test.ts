import { allCalls, BUILT_IN_ROLES, type CallDef } from '@coldtrace/contract';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { roles as rolesTable } from '../src/db/schema';
import { alarms } from '../src/db/schema-shipments';
import { sessionIdOf } from '../src/modules/identity/auth/cookies';
import { setMembership } from '../src/modules/orgs/repository';
import { readSeries } from '../src/modules/series/series-store';
import { createTestApp, TEST_PASSWORD, uid, type TestApp, type TestClient } from './helpers';
import { epoch, iso, TokenClient, xt1Body } from './shipment-factories';
import { eq } from 'drizzle-orm';

/**
 * The route walk (issue 5 item 7, issue 10 "Done when"): every call of the
 * contract's route table, made as
 *   - an anonymous visitor,
 *   - a Viewer of the victim organization (a low-privilege member),
 *   - an Administrator of another organization, with a session and with a user token,
 *   - another organization's API key (both header forms),
 *   - another organization's device token (a user token of an Operator-like member,
 *     as the phone app uses for rt and nanotag uploads).
 * Requests carry valid-shaped bodies naming the victim's ids, tags and serial
 * numbers, so a 2xx would be a real leak. Every victim value (ids, names, e-mails,
 * serial numbers, references, key prefix) carries a unique marker, and every
 * numeric id of the victim lies in a range no other row uses; no body of an
 * attacker's request may contain any of them (unless the request itself named
 * it: an echo is not a leak). After the walks, every row of the victim
 * organization is as it was.
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
  healthGet: 'says whether the database answers, nothing else',
};

/**
 * Calls that may answer 2xx to another organization naming the victim's serial
 * number: they write into the caller's own organization (a serial number names a
 * tag within an organization). The end-of-walk check proves nothing of the
 * victim's changed, and the leak check that no victim value came back.
 */
const WRITES_OWN = new Set([
  'xt1ScanUpload',
  'xt1StartAction',
  'xt1StopAction',
  'xt1ConfigureAction',
  'xt1CreateShipmentAction',
  'rtConfigureAction',
  'rtStartAction',
  'rtStopAction',
  'rtPackets',
  'rtConfigureRequest',
  'rtStartRequest',
  'rtStopRequest',
  'nanotagGeneralizedData',
  'nanotagConfigureAction',
  'nanotagFirstSampleAction',
  'nanotagHealthAction',
  'nanotagPackets',
  'nanotagStatusAction',
  'nanotagTransmitInterval',
]);

/** The background jobs the victim's data sets off (alarm fan-out and e-mails, reports). */
const JOBS = [
  'alarm.raised',
  'trip.event',
  'mail.send',
  'report.generate',
  'password.reset-request',
];

/** Every victim row id is in [VICTIM_IDS, LATER_IDS); rows made later start at LATER_IDS. */
const VICTIM_IDS = 7_700_000_000;
const LATER_IDS = 8_800_000_000;

const REFUSED = (status: number) => [401, 403, 404].includes(status);
/** Another organization's id: any 4xx (400 when it answers "no such ... in this organization"). */
const TURNED_AWAY = (status: number) => status >= 400 && status < 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HASH_LIKE = /^[A-Za-z0-9+/=_-]{32,}$/;

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
  marker: string;
  orgId: string;
  adminId: string;
  memberId: string;
  roleIds: Record<string, string>;
  xt1: { serial: string; recordId: string; tagId: number; alarmIds: string[] };
  rt: { serial: string; recordId: string };
  nanotag: { serial: string; recordId: string };
  recordIds: number[];
  carrier: Record<string, unknown>;
  product: Record<string, unknown>;
  travelLocation: Record<string, unknown>;
  keyPrefix: string;
  /** The listed id of the victim admin's user token. */
  tokenId: string;
  reportId: string;
  calibration: { pdfId: string; deviceId: number };
  displayRuleId: string;
  settingId: string;
  notificationRuleId: string;
}

interface VictimRequest {
  query?: Record<string, string>;
  body?: unknown;
  /** 2xx allowed: the call writes into the caller's own organization. */
  writesOwn?: boolean;
}

/** Requests naming the victim's data, for the calls that take an id, a serial or an organization. */
function victimRequests(v: Victim, own: { orgId?: string }): Record<string, VictimRequest[]> {
  const now = epoch(new Date());
  const strip = ({ id: _id, ...rest }: Record<string, unknown>) => rest;
  const xt1 = (overrides: Record<string, unknown> = {}): VictimRequest[] => [
    { body: xt1Body(v.xt1.serial, { start_time_seconds: now - 7200, ...overrides }) },
  ];
  const rt = (body: Record<string, unknown>): VictimRequest[] => [
    { body: { tag_id: v.rt.serial, ...body } },
  ];
  const nano = (body: Record<string, unknown>): VictimRequest[] => [
    { body: { tag_id: v.nanotag.serial, ...body } },
  ];
  const recordQuery = (name: string): VictimRequest[] => [{ query: { [name]: v.xt1.recordId } }];
  return {
    authSessionSwitch: [{ body: { id: v.orgId } }],
    productsCarrierDefinitionsUpdate: [
      { query: { carrier_id: String(v.carrier.id) }, body: strip(v.carrier) },
    ],
    productsProductDefinitionsUpdate: [
      { query: { product_id: String(v.product.id) }, body: strip(v.product) },
    ],
    productsTravelLocationsUpdate: [
      {
        query: { travel_location_id: String(v.travelLocation.id) },
        body: strip(v.travelLocation),
      },
    ],
    xt1Record: recordQuery('record_id'),
    xt1LatestRecord: [
      { query: { tag_id_or_serial_number: v.xt1.serial } },
      { query: { tag_id_or_serial_number: String(v.xt1.tagId) } },
    ],
    xt1RecordActions: recordQuery('record_ids'),
    xt1RecordScans: recordQuery('record_ids'),
    xt1Alarms: [
      {
        query: {
          record_id: v.xt1.recordId,
          include_acknowledged: 'true',
          include_dismissed: 'true',
        },
      },
    ],
    xt1Notifications: recordQuery('record_id'),
    notificationLogList: recordQuery('record_id'),
    auditList: recordQuery('record_id'),
    auditCsv: recordQuery('record_id'),
    aggregateLocations: [{ query: { record_ids: v.recordIds.join(',') } }],
    aggregateRecordTemperatures: [{ query: { record_ids: v.recordIds.join(',') } }],
    xt1ScanUpload: xt1({ temps: [99.9, 99.9, 99.9] }),
    xt1StartAction: xt1(),
    xt1StopAction: xt1({ record_id: v.xt1.recordId, stop_time_seconds: now }),
    xt1ConfigureAction: xt1({ high_threshold: 99 }),
    xt1CreateShipmentAction: xt1({ primary_reference: 'STOLEN' }),
    xt1UpdateShipmentAction: xt1({ record_id: v.xt1.recordId, primary_reference: 'STOLEN' }),
    xt1TripEdit: [{ body: { record_id: v.xt1.recordId, begin_time: iso(now - 3600) } }],
    xt1AlarmAcknowledge: [
      {
        body: {
          record_ids: [v.xt1.recordId],
          alarm_ids: v.xt1.alarmIds,
          comment: 'not mine',
          client_type: 'WEB',
          // The caller's own signature: every test user has TEST_PASSWORD.
          password: TEST_PASSWORD,
          meaning: 'REVIEWED',
        },
      },
    ],
    xt1AlarmDismiss: [
      { body: { record_ids: [v.xt1.recordId], client_type: 'WEB' } },
      { body: { alarm_ids: v.xt1.alarmIds, client_type: 'WEB' } },
    ],
    xt1AlarmRecipients: [
      { body: { record_id: v.xt1.recordId, alarm_recipients: ['thief@example.test'] } },
    ],
    xt1ReportPdfCreate: [{ body: { record_id: v.xt1.recordId } }],
    xt1ReportCsvCreate: [{ body: { record_id: v.xt1.recordId } }],
    xt1ReportXlsxCreate: [{ body: { record_id: v.xt1.recordId } }],
    xt1ReportPdfGet: [{ query: { report_id: v.reportId } }],
    xt1ReportCsvGet: [{ query: { report_id: v.reportId } }],
    xt1ReportXlsxGet: [{ query: { report_id: v.reportId } }],
    xt1CalibrationList: [{ query: { device_id: String(v.calibration.deviceId) } }],
    xt1CalibrationPdf: [
      {
        query: {
          calibration_pdf_id: v.calibration.pdfId,
          device_id: String(v.calibration.deviceId),
        },
      },
    ],
    xt1CalibrationUpload: [
      {
        body: {
          model_name: 'stolen',
          equipment: [],
          specifications: [],
          calibrated_devices: [
            {
              device_id: v.xt1.tagId,
              tag_type: 'XT1_NFC_MU',
              calibration_timestamp: '2026-06-15T09:30:00Z',
            },
          ],
        },
      },
    ],
    dataDisplayRulesCreate: [{ body: { role_id: v.roleIds.Viewer, temperature_decimals: 0 } }],
    dataDisplayRulesUpdate: [{ body: { rule_id: v.displayRuleId, temperature_decimals: 0 } }],
    notificationSettingsUpdate: [
      { query: { setting_id: v.settingId }, body: { status: 'Disabled' } },
    ],
    notificationSettingsDelete: [{ query: { setting_id: v.settingId } }],
    notificationRulesCreate: [
      {
        body: {
          name: 'steal',
          users: [v.adminId],
          root_rule: { operator: 'AND', unary_children: [] },
        },
      },
    ],
    notificationRulesUpdate: [{ query: { rule_id: v.notificationRuleId }, body: { name: 'x' } }],
    notificationRulesDelete: [{ query: { rule_id: v.notificationRuleId } }],
    authUsersRegister: [
      {
        body: {
          username: `intruder_${uid()}`,
          first_name: 'In',
          last_name: 'Truder',
          email: `intruder_${uid()}@example.test`,
          organization_id: v.orgId,
          role_id: v.roleIds.Administrator,
        },
      },
    ],
    authUserRoles: [{ body: { user_id: v.memberId, role_id: v.roleIds.Administrator } }],
    authUserLock: [{ body: { user_id: v.memberId, is_locked: true } }],
    keysGenerate: [{ body: { name: 'stolen', role_id: v.roleIds.Administrator } }],
    keysRevoke: [{ body: { prefix: v.keyPrefix } }],
    authTokenRevoke: [{ body: { id: v.tokenId } }],
    xt1AssignTags: [
      { body: { organization_id: v.orgId, tag_ids: [v.xt1.serial] } },
      ...(own.orgId
        ? [
            {
              body: {
                organization_id: own.orgId,
                tag_ids: [v.xt1.serial, v.rt.serial, String(v.xt1.tagId)],
              },
              writesOwn: true,
            },
          ]
        : []),
    ],
    authPasswordResetConfirm: [
      { body: { uuid: v.adminId, token: 'guessed-token', new_password: 'Stolen password 99!' } },
    ],
    authPasswordResetValidate: [{ body: { uuid: v.adminId, token: 'guessed-token' } }],
    rtConfigureAction: rt({
      request_id: 'steal-1',
      high_threshold: 99,
      low_threshold: -99,
      measurement_interval: 60,
      max_transmit_interval: 600,
    }),
    rtStartAction: rt({ request_id: 'steal-2', start_time_seconds: now - 7200 }),
    rtStopAction: rt({ request_id: 'steal-3', stop_time_seconds: now }),
    rtPackets: rt({
      start_time_seconds: now - 7200,
      temperatures_offset_index: 0,
      temps: [99.9, 99.9, 99.9],
    }),
    rtConfigureRequest: rt({}),
    rtStartRequest: rt({}),
    rtStopRequest: rt({}),
    nanotagGeneralizedData: nano({
      high_threshold: 99,
      low_threshold: -99,
      measurement_interval: 60,
      start_delay: 0,
      num_consecutive_excursions: 1,
    }),
    nanotagConfigureAction: nano({ record_period_seconds: 60, report_period_seconds: 600 }),
    nanotagFirstSampleAction: nano({ first_sample_timestamp: iso(now - 7200) }),
    nanotagHealthAction: nano({ battery_health: 'CRITICAL' }),
    nanotagPackets: nano({ temps: [99.9, 99.9], packet_end_time_seconds: now - 60, frame_id: 'x' }),
    nanotagStatusAction: nano({ last_sample_number: 1, last_sample_timestamp: iso(now - 60) }),
    nanotagTransmitInterval: nano({ transmit_interval: 60 }),
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

/** A superuser connection to the test file's database (sequences and the raw dump of rows). */
async function rawClient(databaseName: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: `${inject('pgBaseUrl')}/${databaseName}` });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Every sequence of the application's tables continues from its own slot past `next`. */
async function moveSequences(client: pg.Client, next: number): Promise<void> {
  await client.query(
    `select setval(c.oid, $1::bigint + 10000000 * (row_number() over (order by c.relname)), false)
       from pg_class c
      where c.relkind = 'S' and c.relnamespace = 'public'::regnamespace`,
    [next],
  );
}

/**
 * Every row of the victim: rows of tables with organization_id, rows of tables with
 * record_id of the victim's records, the organization and its members' accounts; each
 * row as JSON text, sorted, per table.
 */
async function victimRows(
  client: pg.Client,
  orgId: string,
  recordIds: readonly number[],
): Promise<Record<string, string[]>> {
  const { rows: columns } = await client.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
      where table_schema = 'public' and column_name in ('organization_id', 'record_id')
        and table_name in (select table_name from information_schema.tables
                            where table_schema = 'public' and table_type = 'BASE TABLE')`,
  );
  const byOrg = new Set(
    columns.filter((c) => c.column_name === 'organization_id').map((c) => c.table_name),
  );
  const byRecord = new Set(
    columns
      .filter((c) => c.column_name === 'record_id' && !byOrg.has(c.table_name))
      .map((c) => c.table_name),
  );
  const out: Record<string, string[]> = {};
  const select = async (name: string, where: string, params: unknown[]) => {
    const { rows } = await client.query<{ row: string }>(
      `select to_jsonb(t)::text as row from ${client.escapeIdentifier(name)} t where ${where}`,
      params,
    );
    out[name] = rows.map((r) => r.row).sort();
  };
  for (const name of byOrg) await select(name, 'organization_id = $1', [orgId]);
  for (const name of byRecord) {
    await select(name, 'record_id = any($1::bigint[])', [recordIds.map(String)]);
  }
  await select('organizations', 'id = $1', [orgId]);
  await select('users', 'id in (select user_id from memberships where organization_id = $1)', [
    orgId,
  ]);
  return out;
}

/** The values that identify the victim: marked text, uuids, hashes; ids in the victim range. */
function identifyingValues(rows: Record<string, string[]>, marker: string) {
  const strings = new Set<string>();
  const numbers = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.includes(marker) || UUID.test(value) || HASH_LIKE.test(value)) strings.add(value);
      if (/^\d+$/.test(value)) visit(Number(value));
    } else if (typeof value === 'number') {
      if (value >= VICTIM_IDS && value < LATER_IDS) numbers.add(String(value));
    } else if (Array.isArray(value)) {
      value.forEach(visit);
    } else if (value !== null && typeof value === 'object') {
      Object.values(value).forEach(visit);
    }
  };
  for (const list of Object.values(rows)) for (const row of list) visit(JSON.parse(row));
  // The marker alone catches a victim value in another spelling or cut short.
  strings.add(marker);
  return { strings: [...strings], numbers: [...numbers] };
}

describe('route walk: no call answers 2xx to a caller without the permission or the organization, and no body carries the victim’s data', () => {
  let t: TestApp;
  let raw: pg.Client;
  let victim: Victim;
  let before: Record<string, string[]>;
  let values: { strings: string[]; numbers: string[] };
  let viewerId: string;

  beforeAll(async () => {
    t = await createTestApp();
    raw = await rawClient(t.databaseName);
    await moveSequences(raw, VICTIM_IDS);

    const marker = `vq${uid()}`;
    const org = await t.createOrg(`Victim ${marker}`);
    const adminUser = await t.signIn({
      role: 'Administrator',
      orgs: [org],
      username: `victim_admin_${marker}`,
      firstName: `Vera ${marker}`,
      lastName: `Victim ${marker}`,
    });
    const admin = adminUser.client;
    const tokenRes = await admin.post('/api/auth/tokens/', { name: `phone ${marker}` });
    expect(tokenRes.statusCode, tokenRes.body).toBe(200);
    const device = new TokenClient(t, (tokenRes.json() as { token: string }).token);
    const member = await t.createUser({
      role: 'Operator',
      orgs: [org],
      username: `victim_member_${marker}`,
      lastName: `Member ${marker}`,
    });

    const ok = async (res: Promise<LightMyRequestResponse>, what: string) => {
      const r = await res;
      expect(r.statusCode, `${what}: ${r.body}`).toBe(200);
      return r.json() as Record<string, unknown>;
    };
    const create = (path: string, body: Record<string, unknown>) =>
      ok(admin.post(path, body), path);

    const carrier = await create('/api/products/carrier-definitions/', {
      name: `Carrier ${marker}`,
    });
    const product = await create('/api/products/product-definitions/', {
      product_name: `Product ${marker}`,
      high_threshold: 8,
      low_threshold: 2,
    });
    const travelLocation = await create('/api/products/travel-locations/', {
      name: `Depot ${marker}`,
      address: `1 ${marker} Street`,
      latitude: 52.1,
      longitude: 4.3,
    });
    // The organization's settings row exists from the first read on (any member's first look).
    await ok(admin.get('/api/auth/org-settings/'), 'org settings');
    const roleList = (await admin.get('/api/auth/role-permissions/')).json() as {
      id: string;
      name: string;
    }[];
    const roleIds = Object.fromEntries(roleList.map((r) => [r.name, r.id]));

    // An xt1 shipment through ingest: references, excursions above and below.
    const now = epoch(new Date());
    const start = now - 3600;
    const xt1Serial = `X-${marker}`;
    const references = {
      primary_reference: `PO ${marker}`,
      secondary_reference: `Batch ${marker}`,
      shipping_reference: `AWB ${marker}`,
      program_name: `Program ${marker}`,
      po_number: `PN-${marker}`,
      carrier: `Carrier ${marker}`,
      product_designation: `Product ${marker}`,
    };
    const started = await ok(
      admin.post(
        '/api/devices/xt1/start-action/',
        xt1Body(xt1Serial, { start_time_seconds: start, timestamp: iso(start), ...references }),
      ),
      'xt1 start',
    );
    const xt1RecordId = String(started.record_id);
    await ok(
      admin.post(
        '/api/devices/xt1/scans/',
        xt1Body(xt1Serial, {
          start_time_seconds: start,
          timestamp: iso(start + 600),
          temps: [5, 5, 9, 9.5, 5, 5, 1, 1.5, 5],
          ...references,
        }),
      ),
      'xt1 scan',
    );

    // An rt record (configure, start, packets) and a nanotag record (settings, configure,
    // first sample, a frame), through the victim's device token.
    const rtSerial = `R-${marker}`;
    const rtRecord = await ok(
      device.post('/api/devices/rt/configure-action/', {
        tag_id: rtSerial,
        request_id: 'v-1',
        high_threshold: 8,
        low_threshold: 2,
        measurement_interval: 60,
        max_transmit_interval: 600,
      }),
      'rt configure',
    );
    await ok(
      device.post('/api/devices/rt/start-action/', {
        tag_id: rtSerial,
        request_id: 'v-2',
        start_time_seconds: start,
      }),
      'rt start',
    );
    await ok(
      device.post('/api/devices/rt/packets/', {
        tag_id: rtSerial,
        start_time_seconds: start,
        temperatures_offset_index: 0,
        temps: [4, 4, 5, 5],
      }),
      'rt packets',
    );
    const nanoSerial = `N-${marker}`;
    await ok(
      device.post('/api/devices/nanotag/generalized-data/', {
        tag_id: nanoSerial,
        high_threshold: 8,
        low_threshold: 2,
        measurement_interval: 120,
        start_delay: 0,
        num_consecutive_excursions: 1,
      }),
      'nanotag settings',
    );
    const nanoRecord = await ok(
      device.post('/api/devices/nanotag/configure-action/', {
        tag_id: nanoSerial,
        record_period_seconds: 120,
        report_period_seconds: 900,
      }),
      'nanotag configure',
    );
    await ok(
      device.post('/api/devices/nanotag/first-sample-action/', {
        tag_id: nanoSerial,
        first_sample_timestamp: iso(start),
      }),
      'nanotag first sample',
    );
    await ok(
      device.post('/api/devices/nanotag/packets/', {
        tag_id: nanoSerial,
        temps: [5, 6, 7],
        packet_end_time_seconds: start + 2 * 120,
        frame_id: `f-${marker}`,
        location: { latitude: 50, longitude: 8 },
      }),
      'nanotag packets',
    );

    const alarmRows = await t.db
      .select({ id: alarms.id, tagId: alarms.tagId })
      .from(alarms)
      .where(eq(alarms.recordId, Number(xt1RecordId)));
    expect(alarmRows.length).toBeGreaterThan(0);
    const xt1TagId = Number(alarmRows[0]!.tagId);

    const key = await create('/api/keys/generate/', { name: `key ${marker}` });
    const report = await create('/api/devices/xt1/reports/csv/', { record_id: xt1RecordId });
    const reportId = new URL(String(report.localUrl), 'http://x').searchParams.get('report_id')!;
    const calibration = await create('/api/devices/xt1/calibration/', {
      model_name: `Model ${marker}`,
      equipment: [
        {
          manufacturer: `Maker ${marker}`,
          model: '1524',
          serial_number: `EQ-${marker}`,
          description: 'Reference thermometer',
        },
      ],
      specifications: [{ temperature_range_low: -30, temperature_range_high: 50, dut_error: 0.5 }],
      calibrated_devices: [
        {
          device_id: xt1TagId,
          tag_type: 'XT1_NFC_MU',
          calibration_timestamp: '2026-06-15T09:30:00Z',
        },
      ],
    });
    const displayRule = await create('/api/data-display-rules/', {
      role_id: roleIds.Viewer,
      temperature_decimals: 2,
    });
    const setting = await create('/api/notifications/settings/', {
      notification_type: 'Alarm',
      status: 'Test',
      to_list: [`qa_${marker}@example.test`],
      comment: `Setting ${marker}`,
    });
    const notificationRule = await create('/api/notifications/rules/', {
      name: `Rule ${marker}`,
      users: [adminUser.user.id],
      root_rule: {
        operator: 'AND',
        unary_children: [
          {
            operator: 'IS',
            function: {
              field: 'product_designation',
              function_operator: 'EQUALS',
              value: `Product ${marker}`,
            },
          },
        ],
      },
    });
    await t.app.jobs.waitForIdle(JOBS);
    // Everything made from here on (the attackers, their data) has ids past the victim's.
    await moveSequences(raw, LATER_IDS);

    victim = {
      marker,
      orgId: org.id,
      adminId: adminUser.user.id,
      memberId: member.id,
      roleIds,
      xt1: {
        serial: xt1Serial,
        recordId: xt1RecordId,
        tagId: xt1TagId,
        alarmIds: alarmRows.map((a) => String(a.id)),
      },
      rt: { serial: rtSerial, recordId: String(rtRecord.record_id) },
      nanotag: { serial: nanoSerial, recordId: String(nanoRecord.record_id) },
      recordIds: [xt1RecordId, rtRecord.record_id, nanoRecord.record_id].map(Number),
      carrier,
      product,
      travelLocation,
      keyPrefix: String(key.prefix),
      tokenId: sessionIdOf(device.token).slice(0, 16),
      reportId,
      calibration: {
        pdfId: String(calibration.calibration_pdf_id),
        deviceId: xt1TagId,
      },
      displayRuleId: String(displayRule.id),
      settingId: String(setting.id),
      notificationRuleId: String(notificationRule.id),
    };
    before = await victimRows(raw, org.id, victim.recordIds);
    values = identifyingValues(before, marker);
  }, 60_000);
  afterAll(async () => {
    await raw?.end();
    await t?.close();
  });

  /** Victim values in the reply that the request did not name itself. */
  function leaked(res: LightMyRequestResponse, requestText: string): string[] {
    const body = res.body;
    const found = values.strings.filter((s) => body.includes(s) && !requestText.includes(s));
    for (const match of body.matchAll(/(?<![\d.])\d{10}(?!\d)/g)) {
      const n = match[0];
      if (values.numbers.includes(n) && !requestText.includes(n)) found.push(n);
    }
    return [...new Set(found)];
  }

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

  type Expectation = (
    call: CallDef,
    res: LightMyRequestResponse,
    req: VictimRequest & { explicit: boolean },
  ) => string | null;

  /**
   * Walks every call (each victim request of it, or a filler); answers the problems
   * found ("METHOD path: status ..."). Every reply is checked for victim values unless
   * `sameOrganization`.
   */
  async function walk(
    send: Send,
    expectation: Expectation,
    opts: { ownOrgId?: string; sameOrganization?: boolean } = {},
  ): Promise<string[]> {
    const problems: string[] = [];
    const requests = victimRequests(victim, { ...(opts.ownOrgId ? { orgId: opts.ownOrgId } : {}) });
    for (const call of CALLS) {
      const explicit = requests[call.operationId];
      for (const req of explicit ?? [fillerRequest(call)]) {
        const res = await send(call, req);
        const requestText = `${urlOf(call, req.query)} ${JSON.stringify(req.body ?? null)}`;
        const problem =
          (res.statusCode >= 500 ? 'server error' : null) ??
          expectation(call, res, { ...req, explicit: explicit !== undefined }) ??
          (opts.sameOrganization
            ? null
            : ((found) => (found.length > 0 ? `leaks ${found.join(', ')}` : null))(
                leaked(res, requestText),
              ));
        if (problem) {
          problems.push(
            `${call.operationId} ${call.method} ${urlOf(call, req.query)}: ${res.statusCode} ${problem} ${res.body.slice(0, 160)}`,
          );
        }
      }
    }
    return problems;
  }

  /** Another organization: refused on every request naming the victim, unless it writes its own. */
  const crossOrganization =
    (label: string): Expectation =>
    (call, res, req) =>
      req.explicit &&
      !TURNED_AWAY(res.statusCode) &&
      !(WRITES_OWN.has(call.operationId) || req.writesOwn)
        ? `${label} reached the victim's data`
        : null;

  it('the public calls are exactly the listed exceptions', () => {
    const publicCalls = CALLS.filter((c) => c.auth === 'public').map((c) => c.operationId);
    expect(publicCalls.sort()).toEqual(Object.keys(PUBLIC_CALLS).sort());
  });

  it('the victim holds the data the walk aims at', () => {
    expect(before.records).toHaveLength(3);
    expect(before.tags).toHaveLength(3);
    expect(before.alarms!.length).toBeGreaterThan(0);
    expect(values.strings.length).toBeGreaterThan(30);
    expect(values.numbers.length).toBeGreaterThan(10);
  });

  it('anonymous: every non-public call answers 401 (403 for a missing CSRF token)', async () => {
    const problems = await walk(viaClient(t.client()), (call, res) =>
      call.auth === 'public' || REFUSED(res.statusCode) ? null : 'anonymous call not refused',
    );
    expect(problems).toEqual([]);
  });

  it('a Viewer of the organization: every call needing a permission a Viewer lacks is refused', async () => {
    const { client, user } = await t.signIn({
      role: 'Viewer',
      orgs: [{ id: victim.orgId, name: '' }],
    });
    viewerId = user.id;
    const held = new Set<string>(BUILT_IN_ROLES.Viewer);
    const problems = await walk(
      viaClient(client),
      (call, res) => {
        const needed = permissionsOf(call);
        const lacks =
          call.serverAdmin === 'only' || (needed.length > 0 && !needed.some((p) => held.has(p)));
        return lacks && !REFUSED(res.statusCode) ? `Viewer lacks ${needed.join('|')}` : null;
      },
      { sameOrganization: true },
    );
    expect(problems).toEqual([]);
  });

  it("another organization's Administrator (session): refused on every victim id, no victim data", async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const problems = await walk(viaClient(client), crossOrganization('other org session'), {
      ownOrgId: orgs[0]!.id,
    });
    expect(problems).toEqual([]);
  });

  it("another organization's Administrator (user token): refused on every victim id, no victim data", async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const res = await client.post('/api/auth/tokens/', { name: 'attacker' });
    const token = (res.json() as { token: string }).token;
    const problems = await walk(
      viaHeaders({ authorization: `Token ${token}` }),
      crossOrganization('other org token'),
      { ownOrgId: orgs[0]!.id },
    );
    expect(problems).toEqual([]);
  });

  it("another organization's device token (an Operator-like member's): refused on every victim id, writes nothing of the victim's", async () => {
    const org = await t.createOrg();
    // The phone app's member: the Operator's permissions and packet uploads.
    await t.db.insert(rolesTable).values({
      organizationId: org.id,
      name: 'Device',
      permissionNames: [...BUILT_IN_ROLES.Operator!, 'awsPacketUpload'],
    });
    const { client, user } = await t.signIn({ role: 'Viewer', orgs: [org] });
    await setMembership(t.db, user.id, org.id, 'Device');
    const res = await client.post('/api/auth/tokens/', { name: 'phone' });
    expect(res.statusCode, res.body).toBe(200);
    const token = (res.json() as { token: string }).token;
    const problems = await walk(
      viaHeaders({ authorization: `Token ${token}` }),
      crossOrganization('other org device token'),
      { ownOrgId: org.id },
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
      const problems = await walk(
        viaHeaders(headers),
        (call, res) => {
          if (call.auth === 'public') return null;
          if (call.auth === 'key') {
            if (res.statusCode !== 200) return 'key authentication refused a live key';
            return res.json().organization.id === orgs[0]!.id ? null : 'wrong organization';
          }
          return REFUSED(res.statusCode) ? null : 'an API key reached a non-key call';
        },
        { ownOrgId: orgs[0]!.id },
      );
      expect(problems).toEqual([]);
    }
  });

  it('after every walk the victim data is unchanged: records, series, tags, alarms, thresholds, users, memberships, keys, settings', async () => {
    await t.app.jobs.waitForIdle(JOBS);
    const after = await victimRows(raw, victim.orgId, victim.recordIds);
    // The Viewer's own rows (its session, settings, notifications) are the Viewer's doing.
    const notViewers = (rows: Record<string, string[]>) =>
      Object.fromEntries(
        Object.entries(rows).map(([table, list]) => [
          table,
          list.filter((row) => !row.includes(viewerId)),
        ]),
      );
    const changed = Object.keys({ ...before, ...after }).filter(
      (table) =>
        JSON.stringify(notViewers(before)[table] ?? []) !==
        JSON.stringify(notViewers(after)[table] ?? []),
    );
    const detail = changed.map((table) => {
      const was = new Set(notViewers(before)[table] ?? []);
      const now = new Set(notViewers(after)[table] ?? []);
      return {
        table,
        gone: [...was].filter((r) => !now.has(r)).map((r) => r.slice(0, 300)),
        new: [...now].filter((r) => !was.has(r)).map((r) => r.slice(0, 300)),
      };
    });
    expect(detail).toEqual([]);
    for (const id of victim.recordIds) {
      expect((await readSeries(t.db, id)).every((temp) => temp === null || temp < 99)).toBe(true);
    }
  });
});

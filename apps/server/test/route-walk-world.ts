import type { CallDef } from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { roles } from '../src/db/schema';
import { webhookDeliveries } from '../src/db/schema-integrations';
import { alarms } from '../src/db/schema-shipments';
import { sessionIdOf } from '../src/modules/identity/auth/cookies';
import { readSeries } from '../src/kernel/series-store';
import {
  CALLS,
  ECHOES_OWN_WRITES,
  fillerRequest,
  HASH_LIKE,
  JOBS,
  LATER_IDS,
  TURNED_AWAY,
  urlOf,
  UUID,
  VICTIM_IDS,
  victimRequests,
  WRITES_OWN,
  type Victim,
  type VictimRequest,
} from './route-walk-calls';
import { createTestApp, uid, type TestApp, type TestClient } from './helpers';
import { epoch, iso, TokenClient, xt1Body } from './shipment-factories';

/**
 * The route walk's world (see route-walk-calls.ts): the victim organization, its rows
 * before the walks, the values that identify it, and the walk itself. Each route-walk
 * test file builds its own.
 */
export interface VictimWorld {
  t: TestApp;
  raw: pg.Client;
  victim: Victim;
  before: Record<string, string[]>;
  values: { strings: string[]; numbers: string[] };
}

export type Send = (call: CallDef, req: VictimRequest) => Promise<LightMyRequestResponse>;

export type Expectation = (
  call: CallDef,
  res: LightMyRequestResponse,
  req: VictimRequest & { explicit: boolean },
) => string | null;

/** A superuser connection to the test file's database (sequences and the raw dump of rows). */
export async function rawClient(databaseName: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: `${inject('pgBaseUrl')}/${databaseName}` });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Every sequence of the application's tables continues from its own slot past `next`. */
export async function moveSequences(client: pg.Client, next: number): Promise<void> {
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
export async function victimRows(
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
export function identifyingValues(rows: Record<string, string[]>, marker: string) {
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

/** The victim organization with data of every kind, its rows and the values that identify it. */
export async function buildVictimWorld(): Promise<VictimWorld> {
  const t = await createTestApp();
  const raw = await rawClient(t.databaseName);
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
  const create = (path: string, body: Record<string, unknown>) => ok(admin.post(path, body), path);

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
  // A pending invitation of the victim's (issue 34).
  const invited = await create('/api/auth/users/', {
    username: `invitee_${marker}`,
    first_name: `Ivo ${marker}`,
    last_name: `Invitee ${marker}`,
    email: `invitee_${marker}@example.test`,
    organization_id: org.id,
    role_id: roleIds.Viewer,
  });
  const invitationId = (invited.invitation as { id: string }).id;

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
  // Inactive (nothing is sent), with one delivery in its log.
  const webhook = await create('/api/integrations/webhooks/', {
    url: `https://93.184.216.34/${marker}`,
    events: ['alarm.raised'],
    active: false,
    description: `Hook ${marker}`,
  });
  const deliveryId = crypto.randomUUID();
  await t.db.insert(webhookDeliveries).values({
    id: deliveryId,
    organizationId: org.id,
    webhookId: String(webhook.id),
    event: 'alarm.raised',
    eventKey: `alarm.raised:${marker}`,
    payload: JSON.stringify({ id: deliveryId, event: 'alarm.raised', data: { marker } }),
    status: 'delivered',
  });
  await t.app.jobs.waitForIdle(JOBS);
  // Everything made from here on (the attackers, their data) has ids past the victim's.
  await moveSequences(raw, LATER_IDS);

  const victim: Victim = {
    marker,
    orgId: org.id,
    adminId: adminUser.user.id,
    memberId: member.id,
    memberEmail: member.email,
    memberUsername: member.username,
    invitationId,
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
    webhookId: String(webhook.id),
    deliveryId,
  };
  const before = await victimRows(raw, org.id, victim.recordIds);
  const values = identifyingValues(before, marker);
  return { t, raw, victim, before, values };
}

/** The walk over every call, seen from the world's victim. */
export function walker(world: VictimWorld) {
  const { t, victim, values } = world;
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
    const ownRole = opts.ownOrgId
      ? (
          await t.db
            .select({ id: roles.id })
            .from(roles)
            .where(and(eq(roles.organizationId, opts.ownOrgId), eq(roles.name, 'Viewer')))
        )[0]
      : undefined;
    const requests = victimRequests(victim, {
      ...(opts.ownOrgId ? { orgId: opts.ownOrgId } : {}),
      ...(ownRole ? { roleId: ownRole.id } : {}),
    });
    let sentBefore = '';
    for (const call of CALLS) {
      const explicit = requests[call.operationId];
      for (const req of explicit ?? [fillerRequest(call)]) {
        const res = await send(call, req);
        const sent = `${urlOf(call, req.query)} ${JSON.stringify(req.body ?? null)}`;
        const requestText = ECHOES_OWN_WRITES.has(call.operationId)
          ? `${sentBefore} ${sent}`
          : sent;
        sentBefore += ` ${sent}`;
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

  return { walk, viaClient, viaHeaders, crossOrganization };
}

/**
 * After the walks, every row of the victim is as it was (the Viewer's own rows, its
 * session, settings, notifications, excepted), and no series holds a walk's value.
 */
export async function expectVictimUnchanged(world: VictimWorld, viewerId?: string): Promise<void> {
  const { t, raw, victim, before } = world;
  await t.app.jobs.waitForIdle(JOBS);
  const after = await victimRows(raw, victim.orgId, victim.recordIds);
  // The Viewer's own rows (its session, settings, notifications) are the Viewer's doing.
  const notViewers = (rows: Record<string, string[]>) =>
    Object.fromEntries(
      Object.entries(rows).map(([table, list]) => [
        table,
        list.filter((row) => viewerId === undefined || !row.includes(viewerId)),
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
}

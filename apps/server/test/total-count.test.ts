import { allCalls, TOTAL_COUNT_HEADER, type CallDef } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { recordFactories } from './record-factories';
import { insertToken } from './shipment-factories';

/**
 * Spec section 7: "List calls read the total count from the x-total-count
 * response header." Every call of the contract whose reply is a list sends it:
 * the array's length, or for a paged call the number of matching rows.
 */

/** Writes whose reply lists what they changed: not list calls, walked elsewhere. */
const WRITES = new Set(['xt1AlarmAcknowledge', 'xt1AlarmDismiss', 'auditReviewMark']);

const listCalls = allCalls.filter(
  (call: CallDef) => call.reply instanceof z.ZodArray && !WRITES.has(call.operationId),
);

function isPaged(call: CallDef): boolean {
  const query = call.query as z.ZodObject | undefined;
  return query !== undefined && 'page_size' in query.shape;
}

describe('x-total-count on every list call [SPEC-7.8]', () => {
  let t: TestApp;
  let admin: TestClient;
  const queries: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    t = await createTestApp({ config: { webhooks: { allowPrivate: true, retryDelaySeconds: 1 } } });
    const signedIn = await t.signIn({ role: 'Administrator', serverAdmin: true });
    admin = signedIn.client;
    const org = signedIn.orgs[0]!;
    await t.createUser({ orgs: [org] });
    const f = recordFactories(t.db);
    const tag = await f.tag(org);
    const records = [await f.record(org, tag), await f.record(org, await f.tag(org))];
    for (const record of records) {
      await f.series(record, 0, [4, 5, 12, 13, 14, 5]);
      await f.scan(record);
      await f.scan(record);
      await f.action(record);
      await f.location(record);
      await f.location(record);
      await f.location(record);
      await f.alarm(record);
    }
    await f.travelLocation(org);
    await f.travelLocation(org);
    await insertToken(t.db, signedIn.user.id, org.id);
    const calibration = await admin.post('/api/devices/xt1/calibration/', {
      model_name: 'XT1',
      equipment: [],
      specifications: [],
      calibrated_devices: [
        {
          device_id: tag.id,
          tag_type: 'XT1_NFC_MU',
          calibration_timestamp: '2026-06-15T09:30:00Z',
        },
      ],
    });
    expect(calibration.statusCode, calibration.body).toBe(200);
    const webhook = await admin.post('/api/integrations/webhooks/', {
      url: 'http://127.0.0.1:9/hook',
      events: ['alarm.raised'],
    });
    expect(webhook.statusCode, webhook.body).toBe(200);
    const ids = records.map((r) => String(r.id)).join(',');
    Object.assign(queries, {
      xt1RecordActions: { record_ids: ids },
      xt1RecordScans: { record_ids: ids },
      aggregateLocations: { record_ids: ids },
      aggregateRecordTemperatures: { record_ids: ids },
      xt1CalibrationList: { device_id: String(tag.id) },
      xt1RecordDispositions: { record_id: String(records[0]!.id) },
      integrationsWebhookDeliveries: { webhook_id: (webhook.json() as { id: string }).id },
    });
  });
  afterAll(() => t.close());

  const get = (call: CallDef, query: Record<string, string>) =>
    admin.get(`${call.path}?${new URLSearchParams(query).toString()}`);

  it('walks the list calls of the contract', () => {
    // A guard against the walk silently covering nothing.
    expect(listCalls.length).toBeGreaterThanOrEqual(25);
    expect(listCalls.every((call) => call.method === 'GET')).toBe(true);
  });

  it.each(listCalls.map((call) => [call.operationId, call] as const))(
    '%s sends x-total-count',
    async (_name, call) => {
      const query = { ...queries[call.operationId] };
      if (isPaged(call)) query.page_size = '1000';
      const res = await get(call, query);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as unknown[];
      expect(res.headers[TOTAL_COUNT_HEADER]).toBe(String(body.length));
      if (!isPaged(call) || body.length < 2) return;
      // A page of one row still counts every matching row.
      const page = await get(call, { ...queries[call.operationId], page_size: '1' });
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json()).toHaveLength(1);
      expect(page.headers[TOTAL_COUNT_HEADER]).toBe(String(body.length));
    },
  );

  it('the published API document states the header on every list call', async () => {
    const doc = (await admin.get('/api/schema/')).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>;
    };
    for (const call of listCalls) {
      const ok = doc.paths[call.path]?.[call.method.toLowerCase()]?.responses['200'];
      expect(ok?.headers, call.operationId).toHaveProperty([TOTAL_COUNT_HEADER]);
    }
  });

  it('most walked lists hold rows, so the counts are not all zero', async () => {
    const empty: string[] = [];
    for (const call of listCalls) {
      const query = { ...queries[call.operationId] };
      if (isPaged(call)) query.page_size = '1000';
      const body = (await get(call, query)).json() as unknown[];
      if (body.length === 0) empty.push(call.operationId);
    }
    // Products, carriers, keys, notification settings, rules, the log, the bell, release
    // decisions, webhook deliveries and invitations are not set up here; every other list
    // holds rows.
    const notSetUp = [
      'productsCarrierDefinitionsList',
      'productsProductDefinitionsList',
      'xt1RecordDispositions',
      'keysList',
      'notificationSettingsList',
      'notificationRulesList',
      'notificationLogList',
      'xt1Notifications',
      'integrationsWebhookDeliveries',
      'authInvitationsList',
    ].filter((name) => listCalls.some((call) => call.operationId === name));
    expect(empty.sort()).toEqual(notSetUp.sort());
  });
});

import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema-audit';
import { createTestApp, type TestApp } from '../../../test/helpers';
import {
  createTravelLocation,
  deviceUser,
  epoch,
  iso,
  recordOf,
  serial,
  xt1Body,
  type DeviceUser,
} from '../../../test/shipment-factories';

const XT1 = '/api/devices/xt1/';
const SETTINGS = '/api/notifications/settings/';
const RULES = '/api/notifications/rules/';
const LOG = '/api/notifications/log/';
const HOUR = 3600;

/** The notification settings, rules, alarm recipients and log calls (the alarm e-mails themselves: alarm-mail.test.ts). */
describe('notification calls [RULE-NOTIFY-2, SPEC-3]', () => {
  let t: TestApp;
  let admin: DeviceUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await deviceUser(t, { role: 'Administrator' });
  });
  afterAll(() => t.close());

  it('settings: create, list, edit, delete, audited; other organizations answer 404', async () => {
    const created = await admin.client.post(SETTINGS, {
      notification_type: 'Alarm',
      status: 'Test',
      to_list: ['a@example.test', 'A@example.test '],
      product_name: '  ',
    });
    expect(created.statusCode, created.body).toBe(200);
    const setting = created.json();
    expect(setting).toMatchObject({
      notification_type: 'Alarm',
      status: 'Test',
      to_list: ['a@example.test'],
      product_name: null,
      organization: admin.org.id,
    });
    const listed = await admin.client.get(SETTINGS);
    expect(listed.json()).toEqual([setting]);

    const edited = await admin.client.patch(`${SETTINGS}?setting_id=${setting.id}`, {
      status: 'Enabled',
      custom_template_subject: 'Alarm {record_id}',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      status: 'Enabled',
      custom_template_subject: 'Alarm {record_id}',
    });
    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, setting.id));
    expect(
      audit
        .filter((a) => a.entityType === 'notification_setting')
        .map((a) => [a.action, a.field, a.oldValue, a.newValue]),
    ).toEqual(
      expect.arrayContaining([
        ['notification_setting.update', 'status', 'Test', 'Enabled'],
        ['notification_setting.update', 'custom_template_subject', null, 'Alarm {record_id}'],
      ]),
    );

    const stranger = await deviceUser(t, { role: 'Administrator' });
    expect((await stranger.client.get(SETTINGS)).json()).toEqual([]);
    const foreign = await stranger.client.patch(`${SETTINGS}?setting_id=${setting.id}`, {
      status: 'Disabled',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().fields).toHaveProperty('setting_id');
    expect(
      (
        await stranger.client.request({
          method: 'DELETE',
          url: `${SETTINGS}?setting_id=${setting.id}`,
        })
      ).statusCode,
    ).toBe(404);
    const foreignLocation = await createTravelLocation(t.db, stranger.org.id, {
      latitude: 1,
      longitude: 1,
    });
    const badOrigin = await admin.client.post(SETTINGS, {
      notification_type: 'Departure',
      status: 'Enabled',
      origin: foreignLocation,
    });
    expect(badOrigin.statusCode).toBe(404);
    expect(badOrigin.json().fields).toHaveProperty('origin');

    const deleted = await admin.client.request({
      method: 'DELETE',
      url: `${SETTINGS}?setting_id=${setting.id}`,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await admin.client.get(SETTINGS)).json()).toEqual([]);
  });

  it('bad input is a 400 naming the field; permissions are checked', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [SETTINGS, { status: 'Enabled' }, 'notification_type'],
      [SETTINGS, { notification_type: 'Alarm', status: 'Maybe' }, 'status'],
      [
        SETTINGS,
        { notification_type: 'Alarm', status: 'Enabled', to_list: ['not-an-address'] },
        'to_list.0',
      ],
      [RULES, { name: 'x', users: [], root_rule: {} }, 'users'],
      [
        RULES,
        {
          name: 'x',
          users: [admin.userId],
          root_rule: {
            unary_children: [{ function: { function_operator: 'EQUALS', field: 'carrier' } }],
          },
        },
        'root_rule.unary_children.0.function.value',
      ],
      [
        RULES,
        {
          name: 'x',
          users: [admin.userId],
          root_rule: {
            unary_children: [
              { function: { function_operator: 'EQUALS', field: 'colour', value: 'red' } },
            ],
          },
        },
        'root_rule.unary_children.0.function.field',
      ],
      [`${XT1}alarm-recipients/`, { alarm_recipients: [] }, 'record_id'],
      [
        `${XT1}alarm-recipients/`,
        { record_id: '1', alarm_recipients: ['x@'] },
        'alarm_recipients.0',
      ],
    ];
    for (const [url, body, field] of cases) {
      const res = await admin.client.post(url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}: ${res.body}`).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), JSON.stringify(body)).toContain(field);
    }
    const viewer = await t.signIn({ role: 'Viewer', orgs: [admin.org] });
    expect((await viewer.client.get(SETTINGS)).statusCode).toBe(200);
    expect(
      (await viewer.client.post(SETTINGS, { notification_type: 'Alarm', status: 'Enabled' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await viewer.client.post(RULES, { name: 'x', users: [admin.userId], root_rule: {} }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await viewer.client.post(`${XT1}alarm-recipients/`, {
          record_id: '1',
          alarm_recipients: [],
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.client().get(LOG)).statusCode).toBe(401);
  });

  it('rules: users must be members; edit and delete are audited; other organizations answer 404', async () => {
    const stranger = await deviceUser(t, { role: 'Administrator' });
    const notMember = await admin.client.post(RULES, {
      name: 'Everything',
      users: [stranger.userId],
      root_rule: { operator: 'OR', unary_children: [] },
    });
    expect(notMember.statusCode).toBe(404);
    expect(notMember.json().fields).toHaveProperty('users');

    const created = await admin.client.post(RULES, {
      name: 'Everything',
      users: [admin.userId],
      root_rule: {
        unary_children: [{ function: { function_operator: 'ALWAYS_TRUE' } }],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const rule = created.json();
    expect(rule).toEqual({
      id: expect.any(String),
      name: 'Everything',
      users: [admin.userId],
      root_rule: {
        operator: 'AND',
        unary_children: [{ operator: 'IS', function: { function_operator: 'ALWAYS_TRUE' } }],
      },
    });
    expect((await admin.client.get(RULES)).json()).toEqual([rule]);
    const renamed = await admin.client.patch(`${RULES}?rule_id=${rule.id}`, {
      name: 'All records',
    });
    expect(renamed.json()).toMatchObject({ name: 'All records' });
    expect(
      (await stranger.client.patch(`${RULES}?rule_id=${rule.id}`, { name: 'x' })).statusCode,
    ).toBe(404);
    const deleted = await admin.client.request({
      method: 'DELETE',
      url: `${RULES}?rule_id=${rule.id}`,
    });
    expect(deleted.statusCode).toBe(204);
    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, rule.id));
    expect(
      audit
        .filter((a) => a.entityType === 'notification_rule')
        .map((a) => a.action)
        .sort(),
    ).toEqual(['notification_rule.create', 'notification_rule.delete', 'notification_rule.update']);
  });

  it('alarm recipients: stored, audited, 404 for another organization; the log is scoped', async () => {
    const sn = serial();
    const start = epoch(new Date()) - HOUR;
    const started = await admin.device.post(
      `${XT1}start-action/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    const recordId = started.json().record_id as string;
    const res = await admin.client.post(`${XT1}alarm-recipients/`, {
      record_id: recordId,
      alarm_recipients: ['qa@example.test'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await recordOf(t.db, recordId)).alarmRecipients).toEqual(['qa@example.test']);
    const [entry] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.recordId, Number(recordId)), eq(auditEvents.field, 'alarm_recipients')),
      );
    expect(entry).toMatchObject({
      action: 'record.alarm_recipients.update',
      oldValue: [],
      newValue: ['qa@example.test'],
      actorUserId: admin.userId,
    });
    const record = await admin.client.get(`${XT1}record/?record_id=${recordId}`);
    expect(record.json().alarm_recipients).toEqual(['qa@example.test']);

    const stranger = await deviceUser(t, { role: 'Administrator' });
    const foreign = await stranger.client.post(`${XT1}alarm-recipients/`, {
      record_id: recordId,
      alarm_recipients: [],
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().fields).toHaveProperty('record_id');
    expect((await stranger.client.get(`${LOG}?record_id=${recordId}`)).statusCode).toBe(404);
    const log = await stranger.client.get(LOG);
    expect(log.json()).toEqual([]);
    expect(log.headers['x-total-count']).toBe('0');
  });
});

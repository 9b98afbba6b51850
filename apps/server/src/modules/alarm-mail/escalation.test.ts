import { ZNotificationLogEntry, ZNotificationSetting } from '@coldtrace/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notificationLog } from '../../db/schema-alarm-mail';
import { mailOutbox } from '../../db/schema-mail';
import { alarms } from '../../db/schema-shipments';
import { createTestApp, TEST_PASSWORD, uid, type TestApp } from '../../../test/helpers';
import { deviceUser, scannedShipment, type DeviceUser } from '../../../test/shipment-factories';
import { eventually, startSmtpSink, type SmtpSink } from '../../../test/smtp-sink';
import {
  ALARM_ESCALATION_JOB,
  ALARM_RAISED_JOB,
  MAIL_SEND_JOB,
  type EscalationStep,
} from '../../jobs/catalogue';
import { sendEscalation } from './escalation';

/** Escalation (issue 14, docs/decisions/escalation.md). */

const SETTINGS = '/api/notifications/settings/';
const LOG = '/api/notifications/log/';
const ACK = '/api/devices/xt1/alarm-acknowledge/';
const DISMISS = '/api/devices/xt1/alarm-dismiss/';
/** One excursion above 8 °C (points 2-3). */
const TEMPS = [5, 5, 9, 9.5, 5];
const HOUR = 3_600_000;

describe('escalating notification settings [FEAT-ESCALATION]', () => {
  let sink: SmtpSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({
      config: {
        mail: { smtpUrl: sink.url, from: 'Coldtrace <no-reply@ct.test>', retryDelaySeconds: 1 },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  const address = (name: string) => `${name}-${uid()}@example.test`;

  /** An organization whose Alarm setting reminds after 30 and escalates after 120 minutes. */
  async function escalatingOrg(status: 'Enabled' | 'Test' = 'Enabled') {
    const admin = await deviceUser(t, { role: 'Administrator' });
    const to = address('qa');
    const boss = address('boss');
    const res = await admin.client.post(SETTINGS, {
      notification_type: 'Alarm',
      status,
      to_list: [to],
      remind_after_minutes: 30,
      escalate_after_minutes: 120,
      escalation_emails: [boss],
    });
    expect(res.statusCode, res.body).toBe(200);
    const setting = ZNotificationSetting.parse(res.json());
    return { admin, to, boss, setting };
  }

  async function alarmOf(admin: DeviceUser) {
    const { recordId } = await scannedShipment(admin.client, TEMPS, 'ESC');
    await t.app.jobs.waitForIdle([ALARM_RAISED_JOB]);
    const [alarm] = await t.db
      .select()
      .from(alarms)
      .where(eq(alarms.recordId, Number(recordId)));
    return { recordId, alarm: alarm! };
  }

  const job = (
    admin: DeviceUser,
    alarmId: number,
    settingId: string | undefined,
    step: EscalationStep,
  ) => ({ organizationId: admin.org.id, alarmId, settingId: Number(settingId), step });

  const run = (payload: ReturnType<typeof job>, now: Date) =>
    t.db.transaction((tx) => sendEscalation(t.app, tx, payload, now));

  const stepEntries = (alarmId: number) =>
    t.db.select().from(notificationLog).where(eq(notificationLog.alarmId, alarmId));

  describe('the setting fields', () => {
    it('stores and answers remind_after_minutes, escalate_after_minutes and escalation_emails', async () => {
      const { admin, boss, setting } = await escalatingOrg();
      expect(setting).toMatchObject({
        remind_after_minutes: 30,
        escalate_after_minutes: 120,
        escalation_emails: [boss],
      });
      const listed = z.array(ZNotificationSetting).parse((await admin.client.get(SETTINGS)).json());
      expect(listed.find((s) => s.id === setting.id)).toMatchObject({ remind_after_minutes: 30 });
      // A setting without escalation answers null and an empty list.
      const plain = await admin.client.post(SETTINGS, {
        notification_type: 'Alarm',
        status: 'Enabled',
      });
      expect(plain.json()).toMatchObject({
        remind_after_minutes: null,
        escalate_after_minutes: null,
        escalation_emails: [],
      });
      // PATCH: turning the escalation off.
      const off = await admin.client.patch(`${SETTINGS}?setting_id=${setting.id}`, {
        escalate_after_minutes: null,
        escalation_emails: [],
      });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json()).toMatchObject({ remind_after_minutes: 30, escalate_after_minutes: null });
    });

    it('refuses bad escalation with a 400 naming the field, and stores nothing', async () => {
      const admin = await deviceUser(t, { role: 'Administrator' });
      const base = { notification_type: 'Alarm', status: 'Enabled', to_list: [address('qa')] };
      const cases: [Record<string, unknown>, string][] = [
        [{ remind_after_minutes: -5 }, 'remind_after_minutes'],
        [{ remind_after_minutes: 0 }, 'remind_after_minutes'],
        [{ remind_after_minutes: 1.5 }, 'remind_after_minutes'],
        [{ remind_after_minutes: 7 * 24 * 60 + 1 }, 'remind_after_minutes'],
        [
          { escalate_after_minutes: -1, escalation_emails: [address('b')] },
          'escalate_after_minutes',
        ],
        [{ escalate_after_minutes: 60 }, 'escalation_emails'],
        [{ escalate_after_minutes: 60, escalation_emails: [] }, 'escalation_emails'],
        [{ escalation_emails: [address('b')] }, 'escalate_after_minutes'],
        [
          { escalation_emails: ['not an address'], escalate_after_minutes: 60 },
          'escalation_emails.0',
        ],
        [
          {
            remind_after_minutes: 60,
            escalate_after_minutes: 60,
            escalation_emails: [address('b')],
          },
          'escalate_after_minutes',
        ],
        [
          {
            remind_after_minutes: 90,
            escalate_after_minutes: 60,
            escalation_emails: [address('b')],
          },
          'escalate_after_minutes',
        ],
        [{ notification_type: 'Departure', remind_after_minutes: 30 }, 'remind_after_minutes'],
      ];
      for (const [body, field] of cases) {
        const res = await admin.client.post(SETTINGS, { ...base, ...body });
        expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
        expect(Object.keys(res.json().fields), JSON.stringify(body)).toEqual([field]);
      }
      expect((await admin.client.get(SETTINGS)).json()).toEqual([]);
    });

    it('checks a PATCH against the setting as it will be', async () => {
      const admin = await deviceUser(t, { role: 'Administrator' });
      const created = await admin.client.post(SETTINGS, {
        notification_type: 'Alarm',
        status: 'Enabled',
        remind_after_minutes: 30,
        escalate_after_minutes: 120,
        escalation_emails: [address('boss')],
      });
      const id = created.json().id as string;
      const patch = (body: unknown) => admin.client.patch(`${SETTINGS}?setting_id=${id}`, body);
      let res = await patch({ escalate_after_minutes: 20 });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['escalate_after_minutes']);
      res = await patch({ escalation_emails: [] });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['escalation_emails']);
      res = await patch({ notification_type: 'Arrival' });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['remind_after_minutes']);
      res = await patch({ remind_after_minutes: -1 });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['remind_after_minutes']);
      // Unchanged.
      const [stored] = z
        .array(ZNotificationSetting)
        .parse((await admin.client.get(SETTINGS)).json());
      expect(stored).toMatchObject({ remind_after_minutes: 30, escalate_after_minutes: 120 });
      // Another organization's setting: 404, not a 400 about its fields.
      const stranger = await deviceUser(t, { role: 'Administrator' });
      res = await stranger.client.patch(`${SETTINGS}?setting_id=${id}`, {
        escalate_after_minutes: 20,
      });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('reminders and escalations', () => {
    it('schedules one job per alarm and step at its time, when the alarm is e-mailed', async () => {
      const { admin, setting } = await escalatingOrg();
      const { alarm } = await alarmOf(admin);
      const { rows } = await t.db.execute<{ step: string; start_after: Date; setting: string }>(
        sql`select data->>'step' as step, data->>'settingId' as setting, start_after
              from pgboss.job where name = ${ALARM_ESCALATION_JOB}
               and (data->>'alarmId')::bigint = ${alarm.id}
             order by start_after`,
      );
      expect(rows.map((r) => [r.step, r.setting])).toEqual([
        ['reminder', setting.id],
        ['escalation', setting.id],
      ]);
      const minutes = rows.map(
        (r) => (new Date(r.start_after).getTime() - alarm.created.getTime()) / 60_000,
      );
      expect(minutes[0]).toBeCloseTo(30, 1);
      expect(minutes[1]).toBeCloseTo(120, 1);
    });

    it('reminds the recipients, then escalates to the second list, each once, logged', async () => {
      const { admin, to, boss, setting } = await escalatingOrg();
      const { alarm, recordId } = await alarmOf(admin);
      const reminder = job(admin, alarm.id, setting.id, 'reminder');
      // Not due yet (a job that ran early waits for its time): nothing written.
      expect(await run(reminder, new Date(alarm.created.getTime() + 10 * 60_000))).toBe('later');
      expect(await stepEntries(alarm.id)).toEqual([]);
      const late = new Date(alarm.created.getTime() + 3 * HOUR);
      expect(await run(reminder, late)).toBe('sent');
      // The same step again (a job run twice): nothing more.
      expect(await run(reminder, late)).toBe('already');
      const escalation = job(admin, alarm.id, setting.id, 'escalation');
      expect(await run(escalation, late)).toBe('sent');
      expect(await run(escalation, late)).toBe('already');

      const entries = await stepEntries(alarm.id);
      expect(entries.map((e) => [e.step, e.toList])).toEqual(
        expect.arrayContaining([
          ['reminder', [to]],
          ['escalation', [boss]],
        ]),
      );
      expect(entries).toHaveLength(2);
      const outbox = await t.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.organizationId, admin.org.id));
      const subjects = outbox.map((m) => m.subject);
      expect(subjects.filter((s) => s.startsWith('Reminder: '))).toEqual([
        `Reminder: record ${recordId} has an unacknowledged alarm (tag ${alarm.tagSerialNumber})`,
      ]);
      expect(subjects.filter((s) => s.startsWith('Escalation: '))).toHaveLength(1);
      expect(subjects.find((s) => s.startsWith('Escalation: '))).toContain(
        'unacknowledged for 120 minutes',
      );

      // The log call shows each step with its alarm.
      const log = z
        .array(ZNotificationLogEntry)
        .parse((await admin.client.get(`${LOG}?record_id=${recordId}`)).json());
      expect(log.filter((e) => e.alarm === String(alarm.id)).map((e) => e.step)).toEqual(
        expect.arrayContaining(['reminder', 'escalation']),
      );
      expect(log.find((e) => e.step === 'reminder')!.comment).toContain(
        `Reminder after 30 minutes: alarm ${alarm.id} unacknowledged`,
      );
    });

    it('stops the moment the alarm is acknowledged, or dismissed', async () => {
      const { admin, setting } = await escalatingOrg();
      const late = (a: { created: Date }) => new Date(a.created.getTime() + 3 * HOUR);
      // Acknowledged before its reminder: no reminder, no escalation.
      const acked = await alarmOf(admin);
      const res = await admin.client.post(ACK, {
        record_ids: [acked.recordId],
        comment: 'Reviewed',
        client_type: 'WEB',
        password: TEST_PASSWORD,
        meaning: 'REVIEWED',
      });
      expect(res.statusCode, res.body).toBe(200);
      for (const step of ['reminder', 'escalation'] as const) {
        expect(await run(job(admin, acked.alarm.id, setting.id, step), late(acked.alarm))).toBe(
          'stopped',
        );
      }
      expect(await stepEntries(acked.alarm.id)).toEqual([]);

      // Reminded, then acknowledged: the escalation does not follow.
      const reminded = await alarmOf(admin);
      expect(
        await run(job(admin, reminded.alarm.id, setting.id, 'reminder'), late(reminded.alarm)),
      ).toBe('sent');
      await admin.client.post(ACK, {
        record_ids: [reminded.recordId],
        comment: 'Reviewed',
        client_type: 'WEB',
        password: TEST_PASSWORD,
        meaning: 'REVIEWED',
      });
      expect(
        await run(job(admin, reminded.alarm.id, setting.id, 'escalation'), late(reminded.alarm)),
      ).toBe('stopped');
      expect((await stepEntries(reminded.alarm.id)).map((e) => e.step)).toEqual(['reminder']);

      // Dismissed for the organization: stops too.
      const dismissed = await alarmOf(admin);
      const gone = await admin.client.post(DISMISS, {
        record_ids: [dismissed.recordId],
        reason: 'Probe fault',
        client_type: 'WEB',
      });
      expect(gone.statusCode, gone.body).toBe(200);
      expect(
        await run(job(admin, dismissed.alarm.id, setting.id, 'reminder'), late(dismissed.alarm)),
      ).toBe('stopped');
      expect(await stepEntries(dismissed.alarm.id)).toEqual([]);
    });

    it('a Test setting logs its reminder and sends nothing; a Disabled one does nothing', async () => {
      const { admin, setting } = await escalatingOrg('Test');
      const { alarm } = await alarmOf(admin);
      const late = new Date(alarm.created.getTime() + 3 * HOUR);
      expect(await run(job(admin, alarm.id, setting.id, 'reminder'), late)).toBe('test');
      const [entry] = await stepEntries(alarm.id);
      expect(entry).toMatchObject({ status: 'test', step: 'reminder' });
      expect(entry!.comment).toContain('(Test): not sent');
      await admin.client.patch(`${SETTINGS}?setting_id=${setting.id}`, { status: 'Disabled' });
      expect(await run(job(admin, alarm.id, setting.id, 'escalation'), late)).toBe('stopped');
      const outbox = await t.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.organizationId, admin.org.id));
      expect(outbox.filter((m) => /^(Reminder|Escalation): /.test(m.subject))).toEqual([]);
    });

    it('through the queue: a job sent twice delivers one reminder', async () => {
      const { admin, to, setting } = await escalatingOrg();
      const { alarm, recordId } = await alarmOf(admin);
      // The alarm was raised two hours ago: its reminder is due.
      await t.ownerDb
        .update(alarms)
        .set({ created: new Date(Date.now() - 2 * HOUR) })
        .where(eq(alarms.id, alarm.id));
      const payload = job(admin, alarm.id, setting.id, 'reminder');
      await t.app.jobs.send(ALARM_ESCALATION_JOB, payload);
      await t.app.jobs.send(ALARM_ESCALATION_JOB, payload);
      // (Not waitForIdle: the alarm's own jobs wait for their times, minutes away.)
      const about = (m: { subject?: string }) =>
        (m.subject ?? '').startsWith(`Reminder: record ${recordId} `);
      await eventually(
        () => sink.messages.filter(about),
        (found) => found.length >= 1,
      );
      // Both jobs have run (none left due), and no second e-mail follows.
      await eventually(
        () =>
          t.db.execute<{ n: number }>(
            sql`select count(*)::int as n from pgboss.job where name = ${ALARM_ESCALATION_JOB}
                 and (data->>'alarmId')::bigint = ${alarm.id} and start_after <= now()
                 and state not in ('completed', 'failed', 'cancelled')`,
          ),
        (r) => r.rows[0]!.n === 0,
      );
      await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
      await new Promise((r) => setTimeout(r, 500));
      const mails = sink.messages.filter(about);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.envelopeTo.map((a) => a.toLowerCase())).toEqual([to.toLowerCase()]);
      const entries = await t.db
        .select()
        .from(notificationLog)
        .where(and(eq(notificationLog.alarmId, alarm.id), eq(notificationLog.step, 'reminder')));
      expect(entries).toHaveLength(1);
    });
  });
});

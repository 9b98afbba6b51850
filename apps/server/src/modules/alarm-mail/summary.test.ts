import { execFileSync } from 'node:child_process';
import { ZNotificationLogEntry, ZNotificationSetting } from '@coldtrace/contract';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mailOutbox } from '../../db/schema-mail';
import { notificationSettings } from '../../db/schema-alarm-mail';
import { createTestApp, uid, type TestApp } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { deviceUser } from '../../../test/shipment-factories';
import { eventually, startSmtpSink, type SmtpSink } from '../../../test/smtp-sink';
import { MAIL_SEND_JOB } from '../../jobs/catalogue';
import { sendDueSummaries } from './summary';
import { duePeriod } from './summary-period';

/** Scheduled summaries (issue 15 item 3, docs/decisions/scheduled-reports.md). */

const SETTINGS = '/api/notifications/settings/';
const LOG = '/api/notifications/log/';
const ZONE = 'Europe/Berlin';
const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

describe('the summary period [FEAT-SUMMARY-MAIL]', () => {
  it('is the local day before, due from 06:00 in the zone', () => {
    // 05:30 UTC is 06:30 in Berlin (UTC+1 in November): 23 November is due.
    const p = duePeriod('DAILY', ZONE, new Date('2026-11-24T05:30:00Z'));
    expect(p).toMatchObject({
      key: '2026-11-23',
      from: new Date('2026-11-22T23:00:00Z'),
      to: new Date('2026-11-23T23:00:00Z'),
    });
    // 04:30 UTC is 05:30 in Berlin: still the 22nd.
    expect(duePeriod('DAILY', ZONE, new Date('2026-11-24T04:30:00Z')).key).toBe('2026-11-22');
  });

  it('is the ISO week before, due from Monday 06:00', () => {
    // Monday 23 November 2026, 07:00 in Berlin: week 47 (16 to 22 November).
    const p = duePeriod('WEEKLY', ZONE, new Date('2026-11-23T06:00:00Z'));
    expect(p).toMatchObject({
      key: '2026-W47',
      firstDay: '2026-11-16',
      lastDay: '2026-11-22',
      from: new Date('2026-11-15T23:00:00Z'),
      to: new Date('2026-11-22T23:00:00Z'),
    });
    // Monday 05:00 in Berlin: the week before that.
    expect(duePeriod('WEEKLY', ZONE, new Date('2026-11-23T04:00:00Z')).key).toBe('2026-W46');
    // The following Sunday: still week 47.
    expect(duePeriod('WEEKLY', ZONE, new Date('2026-11-29T20:00:00Z')).key).toBe('2026-W47');
  });
});

describe('scheduled summaries [FEAT-SUMMARY-MAIL]', () => {
  let sink: SmtpSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({
      config: {
        mail: { smtpUrl: sink.url, from: 'Coldtrace <no-reply@ct.test>', retryDelaySeconds: 1 },
        publicOrigin: 'https://coldtrace.example',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  const address = (name: string) => `${name}-${uid()}@example.test`;

  describe('the setting', () => {
    it('stores a Summary setting with its schedule', async () => {
      const admin = await deviceUser(t, { role: 'Administrator' });
      const res = await admin.client.post(SETTINGS, {
        notification_type: 'Summary',
        schedule: 'WEEKLY',
        status: 'Enabled',
        carrier_name: 'DHL',
        to_list: [address('qa')],
      });
      expect(res.statusCode, res.body).toBe(200);
      const setting = ZNotificationSetting.parse(res.json());
      expect(setting).toMatchObject({
        notification_type: 'Summary',
        schedule: 'WEEKLY',
        carrier_name: 'DHL',
      });
      const listed = z.array(ZNotificationSetting).parse((await admin.client.get(SETTINGS)).json());
      expect(listed.map((s) => s.schedule)).toEqual(['WEEKLY']);
      // Other types answer null.
      const alarm = await admin.client.post(SETTINGS, {
        notification_type: 'Alarm',
        status: 'Enabled',
      });
      expect(alarm.json()).toMatchObject({ schedule: null });
    });

    it('refuses a missing or misplaced schedule with a 400 naming the field', async () => {
      const admin = await deviceUser(t, { role: 'Administrator' });
      const cases: [Record<string, unknown>, string][] = [
        [{ notification_type: 'Summary' }, 'schedule'],
        [{ notification_type: 'Summary', schedule: null }, 'schedule'],
        [{ notification_type: 'Summary', schedule: 'HOURLY' }, 'schedule'],
        [{ notification_type: 'Alarm', schedule: 'DAILY' }, 'schedule'],
        [{ notification_type: 'Departure', schedule: 'WEEKLY' }, 'schedule'],
        [{ notification_type: 'Weekly' }, 'notification_type'],
        [
          { notification_type: 'Summary', schedule: 'DAILY', remind_after_minutes: 30 },
          'remind_after_minutes',
        ],
      ];
      for (const [body, field] of cases) {
        const res = await admin.client.post(SETTINGS, { status: 'Enabled', ...body });
        expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
        expect(Object.keys(res.json().fields), JSON.stringify(body)).toEqual([field]);
      }
      expect((await admin.client.get(SETTINGS)).json()).toEqual([]);
      // PATCH is checked against the setting as it will be.
      const created = await admin.client.post(SETTINGS, {
        notification_type: 'Alarm',
        status: 'Enabled',
      });
      const id = created.json().id as string;
      const patch = (body: unknown) => admin.client.patch(`${SETTINGS}?setting_id=${id}`, body);
      let res = await patch({ notification_type: 'Summary' });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['schedule']);
      res = await patch({ schedule: 'DAILY' });
      expect(Object.keys(res.json().fields)).toEqual(['schedule']);
      res = await patch({ notification_type: 'Summary', schedule: 'DAILY' });
      expect(res.statusCode, res.body).toBe(200);
      res = await patch({ schedule: null });
      expect(Object.keys(res.json().fields)).toEqual(['schedule']);
    });
  });

  describe('the job', () => {
    it("sends yesterday's shipments of the organization per lane and carrier, with the PDFs, once", async () => {
      const f = recordFactories(t.db);
      const admin = await deviceUser(t, { role: 'Administrator' });
      const zone = await admin.client.patch('/api/auth/user-settings/', { timezone: ZONE });
      expect(zone.statusCode, zone.body).toBe(200);
      const org = admin.org;
      const hamburg = await f.travelLocation(org, { name: `Hamburg ${uid()}` });
      const lyon = await f.travelLocation(org, { name: `Lyon ${uid()}` });
      // 23 November 2026 in Berlin: 22 Nov 23:00 UTC to 23 Nov 23:00 UTC.
      const inPeriod = (hhmm: string) => seconds(`2026-11-23T${hhmm}:00Z`);
      const lane = { shipperLocationId: hamburg.id, receiverLocationId: lyon.id };
      const back = { shipperLocationId: lyon.id, receiverLocationId: hamburg.id };
      const r1 = await f.record(org, undefined, {
        ...lane,
        carrier: 'DHL',
        startTimeSeconds: seconds('2026-11-22T23:30:00Z'), // 00:30 in Berlin
        highThreshold: 8,
      });
      await f.series(r1, 0, [5, 9, 9, 5]);
      await f.alarm(r1, { state: 'OPEN' });
      await f.alarm(r1, { state: 'CLOSED', acknowledged: true, acknowledgedAt: new Date() });
      const r2 = await f.record(org, undefined, {
        ...lane,
        carrier: 'dhl ',
        startTimeSeconds: inPeriod('10:00'),
      });
      const r3 = await f.record(org, undefined, {
        ...lane,
        carrier: 'UPS',
        startTimeSeconds: inPeriod('12:00'),
        highThreshold: 8,
      });
      await f.series(r3, 0, [5, 10, 5]);
      await f.alarm(r3, { state: 'OPEN', acknowledged: true, acknowledgedAt: new Date() });
      const r4 = await f.record(org, undefined, {
        ...back,
        carrier: 'DHL',
        startTimeSeconds: inPeriod('22:59'),
      });
      // The day before in Berlin (22:30 UTC on the 22nd), and the day after: not counted.
      const before = await f.record(org, undefined, {
        ...lane,
        carrier: 'DHL',
        startTimeSeconds: seconds('2026-11-22T22:30:00Z'),
      });
      await f.alarm(before);
      const after = await f.record(org, undefined, {
        ...lane,
        carrier: 'DHL',
        startTimeSeconds: inPeriod('23:00'),
      });
      await f.alarm(after);
      // Another organization's shipment of the same day, with an alarm: never counted.
      const other = await deviceUser(t, { role: 'Administrator' });
      const foreign = await f.record(other.org, undefined, {
        carrier: 'DHL',
        startTimeSeconds: inPeriod('12:00'),
      });
      await f.alarm(foreign);

      const to = address('summary');
      const created = await admin.client.post(SETTINGS, {
        notification_type: 'Summary',
        schedule: 'DAILY',
        status: 'Enabled',
        to_list: [to],
      });
      expect(created.statusCode, created.body).toBe(200);
      const settingId = Number(created.json().id);
      // Another organization's summary runs too, on its own records only.
      await other.client.post(SETTINGS, {
        notification_type: 'Summary',
        schedule: 'DAILY',
        status: 'Enabled',
        to_list: [address('other')],
      });

      // 06:10 in Berlin on the 24th; then the same hour again (a double run), and an hour later.
      const now = new Date('2026-11-24T05:10:00Z');
      const [first, second, third] = [
        await sendDueSummaries(t.app, now),
        await sendDueSummaries(t.app, now),
        await sendDueSummaries(t.app, new Date('2026-11-24T06:10:00Z')),
      ];
      expect(first.get(settingId)).toBe('sent');
      expect(second.get(settingId)).toBe('already');
      expect(third.get(settingId)).toBe('already');

      await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
      const mails = await eventually(
        () => sink.messages.filter((m) => m.envelopeTo.includes(to)),
        (found) => found.length >= 1,
      );
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.subject).toBe('Daily shipment summary 2026-11-23: 4 shipments, 2 with alarms');
      const text = mail.text!;
      const H = hamburg.name;
      const L = lyon.name;
      expect(text).toContain(`started in 2026-11-23 (${ZONE})`);
      const laneLines = text
        .split('\n')
        .filter((l) => l.startsWith('- ') && l.includes(' → ') && l.includes('shipments'));
      expect(laneLines).toEqual([
        `- ${H} → ${L}, DHL: 2 shipments, 1 with alarms; alarms 2 (open 1, closed 1; acknowledged 1, not acknowledged 1)`,
        `- ${H} → ${L}, UPS: 1 shipments, 1 with alarms; alarms 1 (open 1, closed 0; acknowledged 1, not acknowledged 0)`,
        `- ${L} → ${H}, DHL: 1 shipments, 0 with alarms; alarms 0 (open 0, closed 0; acknowledged 0, not acknowledged 0)`,
      ]);
      expect(text).toContain(
        `- Record ${r1.id} (tag ${r1.tagSerialNumber}), ${H} → ${L}, DHL: 2 alarms. https://coldtrace.example/recorddetails/${r1.id} (PDF attached)`,
      );
      expect(text).toContain(`https://coldtrace.example/recorddetails/${r3.id} (PDF attached)`);
      for (const absent of [r2, r4, before, after, foreign]) {
        expect(text).not.toContain(`Record ${absent.id} `);
      }
      expect(mail.html).toContain(`<a href="https://coldtrace.example/recorddetails/${r1.id}">`);

      // The two PDFs, each naming its record.
      const pdfs = (mail.attachments ?? []).filter((a) => a.mimeType === 'application/pdf');
      expect(pdfs.map((a) => a.filename).sort()).toEqual(
        [
          `record-${r1.id}-${r1.tagSerialNumber}.pdf`,
          `record-${r3.id}-${r3.tagSerialNumber}.pdf`,
        ].sort(),
      );
      for (const [pdf, record] of [
        [pdfs.find((p) => p.filename!.startsWith(`record-${r1.id}-`))!, r1],
      ] as const) {
        const content = pdf.content as ArrayBuffer | string;
        const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content);
        const pdfText = execFileSync('pdftotext', ['-layout', '-', '-'], {
          input: bytes,
        }).toString();
        expect(pdfText).toContain(record.tagSerialNumber);
        expect(pdfText).toContain(String(record.id));
      }

      // One outbox row, one log entry for the period.
      const outbox = await t.db
        .select()
        .from(mailOutbox)
        .where(like(mailOutbox.dedupeKey, `alarm-mail:summary:setting:${settingId}:%`));
      expect(outbox.map((m) => m.dedupeKey)).toEqual([
        `alarm-mail:summary:setting:${settingId}:period:2026-11-23`,
      ]);
      const log = z
        .array(ZNotificationLogEntry)
        .parse((await admin.client.get(LOG)).json())
        .filter((e) => e.notification_type === 'Summary');
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({
        period: '2026-11-23',
        to_list: [to],
        timestamp: '2026-11-22T23:00:00.000Z',
        record: null,
      });
      expect(log[0]!.comment).toContain('4 shipments, 2 with alarms, 2 PDFs attached');
    });

    it('links instead of attaching past 10 shipments in alarm; a Test setting writes its entry and sends nothing', async () => {
      const f = recordFactories(t.db);
      const admin = await deviceUser(t, { role: 'Administrator' });
      const org = admin.org;
      const ids: number[] = [];
      for (let i = 0; i < 11; i++) {
        const r = await f.record(org, undefined, {
          carrier: 'Kuehne',
          startTimeSeconds: seconds('2026-11-23T08:00:00Z') + i,
        });
        await f.alarm(r);
        ids.push(r.id);
      }
      const to = address('many');
      const enabled = await admin.client.post(SETTINGS, {
        notification_type: 'Summary',
        schedule: 'DAILY',
        status: 'Enabled',
        to_list: [to],
      });
      const testTo = address('test');
      const test = await admin.client.post(SETTINGS, {
        notification_type: 'Summary',
        schedule: 'DAILY',
        status: 'Test',
        to_list: [testTo],
      });
      const outcomes = await sendDueSummaries(t.app, new Date('2026-11-24T07:00:00Z'));
      expect(outcomes.get(Number(enabled.json().id))).toBe('sent');
      expect(outcomes.get(Number(test.json().id))).toBe('test');
      await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
      const [mail] = await eventually(
        () => sink.messages.filter((m) => m.envelopeTo.includes(to)),
        (found) => found.length >= 1,
      );
      expect(mail!.attachments ?? []).toEqual([]);
      expect(mail!.text).toContain('11 shipments, 11 with alarms');
      for (const id of ids) {
        expect(mail!.text).toContain(
          `recorddetails/${id} (PDF: sign in and use the record's Reports card)`,
        );
      }
      expect(sink.messages.filter((m) => m.envelopeTo.includes(testTo))).toEqual([]);
      const [row] = await t.db
        .select()
        .from(notificationSettings)
        .where(eq(notificationSettings.id, Number(test.json().id)));
      expect(row?.status).toBe('Test');
    });
  });
});

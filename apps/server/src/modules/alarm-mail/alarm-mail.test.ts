import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userOrgSettings, users } from '../../db/schema';
import { alarmMailEvents, notificationLog } from '../../db/schema-alarm-mail';
import { createTestApp, uid, type TestApp, type TestClient } from '../../../test/helpers';
import {
  createTravelLocation,
  deviceUser,
  epoch,
  iso,
  recordOf,
  serial,
  setGeoFence,
  xt1Body,
} from '../../../test/shipment-factories';
import { eventually, startSmtpSink, type SmtpSink } from '../../../test/smtp-sink';
import { onAlarmRaisedEmail } from './hooks';
import { ALARM_RAISED_JOB, MAIL_SEND_JOB, TRIP_EVENT_JOB } from '../../jobs/catalogue';

const XT1 = '/api/devices/xt1/';
const SETTINGS = '/api/notifications/settings/';
const RULES = '/api/notifications/rules/';
const LOG = '/api/notifications/log/';
/** The in-app helper's fan-out job, which hands raised alarms to the e-mails. */
const HOUR = 3600;

describe('alarm e-mails [RULE-NOTIFY-2, RULE-NOTIFY-3, RULE-NOTIFY-4]', () => {
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

  /** Every message's envelope recipients, lower case, for one subject pattern. */
  const reached = (match: (subject: string) => boolean) =>
    sink.messages
      .filter((m) => match(m.subject ?? ''))
      .flatMap((m) => m.envelopeTo.map((a) => a.toLowerCase()));

  const setFlags = async (client: TestClient, any: boolean, mine: boolean) => {
    const res = await client.patch('/api/auth/user-org-settings/', {
      alarm_notify_any_scans: any,
      alarm_notify_my_scans: mine,
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  const idle = () => t.app.jobs.waitForIdle([ALARM_RAISED_JOB, TRIP_EVENT_JOB, MAIL_SEND_JOB]);

  it('a high excursion e-mails each subscribed person exactly once, nobody else, and logs it', async () => {
    const admin = await deviceUser(t, { role: 'Administrator' });
    const org = admin.org;
    const person = async (flags?: { any: boolean; mine: boolean }) => {
      const signed = await t.signIn({ role: 'Viewer', orgs: [org] });
      if (flags) await setFlags(signed.client, flags.any, flags.mine);
      return signed.user;
    };
    // The scanning user (the admin) wants alarms on their scans.
    await setFlags(admin.client, false, true);
    const anyAlarm = await person({ any: true, mine: false });
    // Subscribed by three sources: "any alarm", the record's recipients (other case) and a setting's cc.
    const threeWays = await person({ any: true, mine: false });
    const myScansNotScanner = await person({ any: false, mine: true });
    const unsubscribed = await person();
    const byRule = await person();
    const notMatchingRule = await person();
    const locked = await t.createUser({ role: 'Viewer', orgs: [org], locked: true });
    await t.db
      .insert(userOrgSettings)
      .values({ userId: locked.id, organizationId: org.id, alarmNotifyAnyScans: true });
    // Another organization's subscriber.
    const other = await t.signIn({ role: 'Viewer' });
    await setFlags(other.client, true, true);

    const suffix = uid();
    const addr = (name: string) => `${name}-${suffix}@example.test`;
    const create = async (body: Record<string, unknown>) => {
      const res = await admin.client.post(SETTINGS, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: string };
    };
    const enabled = await create({
      notification_type: 'Alarm',
      status: 'Enabled',
      product_name: 'insulin',
      to_list: [addr('qa'), addr('QA')],
      cc_list: [threeWays.email.toUpperCase()],
      bcc_list: [addr('hidden')],
      custom_template_subject:
        '[{product}] Excursion on record {record_id}: {highest} °C > {threshold} °C',
      custom_template_email:
        'Record {record_id} ({serial_number}) went to {highest} °C.\n{alarms}\n{link}',
    });
    await create({ notification_type: 'Alarm', status: 'Disabled', to_list: [addr('disabled')] });
    const test = await create({
      notification_type: 'Alarm',
      status: 'Test',
      to_list: [addr('test')],
    });
    await create({
      notification_type: 'Alarm',
      status: 'Enabled',
      product_name: 'Vaccine',
      to_list: [addr('other-product')],
    });
    await create({
      notification_type: 'Departure',
      status: 'Enabled',
      to_list: [addr('departure')],
    });

    const rule = async (name: string, users: string[], children: unknown[]) => {
      const res = await admin.client.post(RULES, {
        name,
        users,
        root_rule: { operator: 'AND', unary_children: children },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await rule(
      'Insulin via ACME',
      [byRule.id, anyAlarm.id],
      [
        {
          operator: 'IS',
          function: { field: 'product_designation', function_operator: 'EQUALS', value: 'INSULIN' },
        },
        {
          operator: 'IS',
          function: { field: 'carrier', function_operator: 'ANY_OF', value: ['DHL', 'acme'] },
        },
      ],
    );
    await rule(
      'Not insulin',
      [notMatchingRule.id],
      [
        {
          operator: 'NOT',
          function: { field: 'product_designation', function_operator: 'EQUALS', value: 'insulin' },
        },
      ],
    );

    // The shipment, then a scan with a high excursion (points 2 to 4 above 8 °C).
    const sn = serial();
    const start = epoch(new Date()) - 2 * HOUR;
    const started = await admin.device.post(
      `${XT1}start-action/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    expect(started.statusCode, started.body).toBe(200);
    const recordId = started.json().record_id as string;
    const shipment = await admin.device.post(
      `${XT1}create-shipment-action/`,
      xt1Body(sn, {
        start_time_seconds: start,
        timestamp: iso(start + 60),
        product_designation: 'Insulin',
        carrier: 'ACME',
      }),
    );
    expect(shipment.statusCode, shipment.body).toBe(200);
    const recipients = await admin.client.post(`${XT1}alarm-recipients/`, {
      record_id: recordId,
      alarm_recipients: [addr('external'), threeWays.email.toUpperCase(), ` ${addr('External')} `],
    });
    expect(recipients.statusCode, recipients.body).toBe(200);
    expect(recipients.json()).toEqual({
      record_id: recordId,
      alarm_recipients: [addr('external'), threeWays.email.toUpperCase()],
    });

    const scanned = await admin.device.post(
      `${XT1}scans/`,
      xt1Body(sn, {
        start_time_seconds: start,
        timestamp: iso(start + 8 * 60),
        temps: [5, 5, 9, 12.4, 9, 5, 5, 5],
      }),
    );
    expect(scanned.statusCode, scanned.body).toBe(200);
    await idle();
    const about = (s: string) =>
      s.includes(`record ${recordId}`) || s.includes(`Record ${recordId}`);
    await eventually(
      () => reached(about),
      (list) => list.length >= 7,
    );
    await idle();

    const got = reached(about);
    const subscribed = [
      addr('qa'),
      addr('hidden'),
      threeWays.email,
      addr('external'),
      anyAlarm.email,
      byRule.email,
    ].map((a) => a.toLowerCase());
    const [adminRow] = await t.db.select().from(users).where(eq(users.id, admin.userId));
    const adminEmail = adminRow!.email.toLowerCase();
    subscribed.push(adminEmail);
    // Exactly one e-mail per subscribed person; nobody else.
    expect([...got].sort()).toEqual([...subscribed].sort());
    for (const nobody of [
      addr('disabled'),
      addr('test'),
      addr('other-product'),
      addr('departure'),
      myScansNotScanner.email,
      unsubscribed.email,
      notMatchingRule.email,
      locked.email,
      other.user.email,
    ]) {
      expect(got).not.toContain(nobody.toLowerCase());
    }

    // The setting's message: its custom subject and body, to / cc / bcc as configured.
    const settingMail = sink.messages.find((m) => m.subject?.startsWith('[Insulin]'));
    expect(settingMail?.subject).toBe(
      `[Insulin] Excursion on record ${recordId}: 12.4 °C > 8.0 °C`,
    );
    expect(settingMail?.text).toContain(`Record ${recordId} (${sn}) went to 12.4 °C.`);
    expect(settingMail?.text).toContain('above 8.0 °C');
    expect(settingMail?.text).toContain(`https://coldtrace.example/recorddetails/${recordId}`);
    expect(settingMail?.to?.map((a) => a.address)).toEqual([addr('qa')]);
    expect(settingMail?.cc?.map((a) => a.address?.toLowerCase())).toEqual([
      threeWays.email.toLowerCase(),
    ]);

    // The notification log: one entry per e-mail, plus the Test setting's entry (not sent).
    const res = await admin.client.get(`${LOG}?record_id=${recordId}`);
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json() as {
      notification_type: string;
      to_list: string[];
      cc_list: string[];
      bcc_list: string[];
      comment: string;
      serial_number: string;
      record: string;
      custom_template_subject: string;
    }[];
    expect(res.headers['x-total-count']).toBe(String(entries.length));
    expect(entries).toHaveLength(sink.messages.filter((m) => about(m.subject ?? '')).length + 1);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        notification_type: 'Alarm',
        serial_number: sn,
        record: recordId,
      });
    }
    const testEntry = entries.find((e) => e.comment.includes('(Test)'));
    expect(testEntry).toMatchObject({
      to_list: [addr('test')],
      comment: expect.stringContaining(test.id),
    });
    const enabledEntry = entries.find((e) => e.comment === `Notification setting ${enabled.id}`);
    expect(enabledEntry).toMatchObject({
      to_list: [addr('qa')],
      bcc_list: [addr('hidden')],
    });
    const ruleEntry = entries.find((e) => e.to_list[0] === byRule.email);
    expect(ruleEntry?.comment).toBe("notification rule 'Insulin via ACME'");
    const anyEntry = entries.find((e) => e.to_list[0] === anyAlarm.email);
    expect(anyEntry?.comment).toBe(
      "any alarm in this organization; notification rule 'Insulin via ACME'",
    );
    const mine = entries.find((e) => e.to_list[0]?.toLowerCase() === adminEmail);
    expect(mine?.comment).toBe('alarms on my scans');

    // A replayed scan, and the same event handed over again, send nothing new.
    const before = sink.messages.length;
    const replay = await admin.device.post(
      `${XT1}scans/`,
      xt1Body(sn, {
        start_time_seconds: start,
        timestamp: iso(start + 8 * 60),
        temps: [5, 5, 9, 12.4, 9, 5, 5, 5],
      }),
    );
    expect(replay.statusCode).toBe(200);
    const [event] = await t.db
      .select()
      .from(alarmMailEvents)
      .where(eq(alarmMailEvents.recordId, Number(recordId)));
    await t.db.transaction((tx) =>
      onAlarmRaisedEmail(t.app, tx, {
        organizationId: org.id,
        recordId: Number(recordId),
        alarmIds: event!.alarmIds,
      }),
    );
    await idle();
    await new Promise((r) => setTimeout(r, 600));
    expect(sink.messages.length).toBe(before);
  });

  it('Departure and Arrival settings send; Disabled sends nothing', async () => {
    const admin = await deviceUser(t, { role: 'Administrator' });
    const org = admin.org;
    await setGeoFence(t.db, org.id, {
      arrivalMetres: 500,
      departureMetres: 1000,
      toArrive: 1,
      toDepart: 1,
    });
    const origin = await createTravelLocation(t.db, org.id, { latitude: 52.37, longitude: 4.9 });
    const destination = await createTravelLocation(t.db, org.id, {
      latitude: 48.85,
      longitude: 2.35,
      name: `Paris ${uid()}`,
    });
    const suffix = uid();
    const addr = (name: string) => `${name}-${suffix}@example.test`;
    for (const body of [
      {
        notification_type: 'Departure',
        status: 'Enabled',
        to_list: [addr('dispatch')],
        origin,
        custom_template_subject: 'Departed: {record_id} from {origin}',
      },
      { notification_type: 'Departure', status: 'Disabled', to_list: [addr('off')] },
      {
        notification_type: 'Departure',
        status: 'Enabled',
        to_list: [addr('elsewhere')],
        origin: destination,
      },
      {
        notification_type: 'Arrival',
        status: 'Enabled',
        to_list: [addr('receiving')],
        carrier_name: 'cold carrier',
      },
      { notification_type: 'Arrival', status: 'Disabled', to_list: [addr('off-arrival')] },
    ]) {
      const res = await admin.client.post(SETTINGS, body);
      expect(res.statusCode, res.body).toBe(200);
    }

    const sn = serial();
    const start = epoch(new Date()) - 4 * HOUR;
    const started = await admin.device.post(
      `${XT1}start-action/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    const recordId = started.json().record_id as string;
    await admin.device.post(
      `${XT1}create-shipment-action/`,
      xt1Body(sn, {
        start_time_seconds: start,
        timestamp: iso(start + 60),
        carrier: 'Cold Carrier',
        shipper_name_address_id: origin,
        receiver_name_address_id: destination,
      }),
    );
    const scanAt = async (minutes: number, latitude: number, longitude: number) => {
      const res = await admin.device.post(
        `${XT1}scans/`,
        xt1Body(sn, {
          start_time_seconds: start,
          timestamp: iso(start + minutes * 60),
          temps: Array(minutes).fill(5),
          latitude,
          longitude,
        }),
      );
      expect(res.statusCode, res.body).toBe(200);
    };
    await scanAt(10, 52.37, 4.9);
    await scanAt(60, 51.5, 4.0);
    expect((await recordOf(t.db, recordId)).tripStatus).toBe('IN_TRANSIT');
    await idle();
    await eventually(
      () => reached((s) => s.startsWith(`Departed: ${recordId}`)),
      (list) => list.length > 0,
    );
    await scanAt(120, 48.85, 2.35);
    expect((await recordOf(t.db, recordId)).tripStatus).toBe('ARRIVED');
    await idle();
    await eventually(
      () => reached((s) => s.startsWith(`Record ${recordId} has arrived`)),
      (list) => list.length > 0,
    );
    // A replay of the arrival scan notes nothing new.
    await scanAt(120, 48.85, 2.35);
    await idle();

    const departure = sink.messages.filter((m) => m.subject?.startsWith(`Departed: ${recordId}`));
    expect(departure).toHaveLength(1);
    expect(departure[0]!.subject).toMatch(/^Departed: \d+ from Site /);
    expect(departure[0]!.envelopeTo).toEqual([addr('dispatch')]);
    const arrival = sink.messages.filter((m) =>
      m.subject?.startsWith(`Record ${recordId} has arrived`),
    );
    expect(arrival).toHaveLength(1);
    expect(arrival[0]!.envelopeTo).toEqual([addr('receiving')]);
    expect(arrival[0]!.text).toContain('Receiver: Paris');
    const all = sink.messages.flatMap((m) => m.envelopeTo);
    for (const nobody of [addr('off'), addr('elsewhere'), addr('off-arrival')]) {
      expect(all).not.toContain(nobody);
    }
    const log = await t.db
      .select()
      .from(notificationLog)
      .where(
        and(
          eq(notificationLog.recordId, Number(recordId)),
          eq(notificationLog.organizationId, org.id),
        ),
      );
    expect(log.map((e) => e.notificationType).sort()).toEqual(['Arrival', 'Departure']);
  });
});

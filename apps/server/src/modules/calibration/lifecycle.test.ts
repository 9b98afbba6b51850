import { execFileSync } from 'node:child_process';
import { ZRecord, ZTagExtended } from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { auditEvents } from '../../db/schema-audit';
import { calibrationCertificateDevices, calibrationCertificates } from '../../db/schema-reports';
import { recordActions } from '../../db/schema-shipments';
import { createTestApp, type TestApp, type TestClient, type TestOrg } from '../../../test/helpers';
import {
  deviceUser,
  epoch,
  iso,
  recordOf,
  serial,
  tagBySerial,
  type TokenClient,
  xt1Body,
} from '../../../test/shipment-factories';

const CALIBRATION = '/api/devices/xt1/calibration/';
const ORG_SETTINGS = '/api/auth/org-settings/';
const XT1 = '/api/devices/xt1/';
const RT = '/api/devices/rt/';
const NANOTAG = '/api/devices/nanotag/';
const DAY = 86_400;

/** Issue 14 item 7: due dates, calibration states, and starts on an expired tag. */
describe('calibration lifecycle [FEAT-CALIBRATION]', () => {
  let t: TestApp;
  let org: TestOrg;
  let admin: TestClient;
  let device: TokenClient;
  let stranger: TestClient;
  let strangerDevice: TokenClient;

  const upload = (
    client: TestClient,
    deviceId: number,
    calibratedAt: string | null,
    due?: string,
  ) =>
    client.post(CALIBRATION, {
      model_name: 'XT1 NFC MU rev. B',
      calibrated_devices: [
        {
          device_id: deviceId,
          calibration_timestamp: calibratedAt,
          ...(due ? { calibration_due: due } : {}),
        },
      ],
    });

  const settings = (client: TestClient, calibration: Record<string, unknown>) =>
    client.patch(ORG_SETTINGS, { calibration_settings: calibration });

  /** A configured xt1 tag (pending record) of the organization. */
  const xt1Tag = async (dev = device) => {
    const sn = serial('CAL');
    const res = await dev.post(`${XT1}configure-action/`, xt1Body(sn));
    expect(res.statusCode, res.body).toBe(200);
    const tag = await tagBySerial(t.db, sn);
    return { sn, id: tag!.id, pendingId: res.json().record_id as string };
  };

  const record = async (id: string) => {
    const res = await admin.get(`${XT1}record/?record_id=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZRecord.parse(res.json());
  };

  const tagRow = async ({ id, sn }: { id: number; sn: string }) => {
    const filter = encodeURIComponent(`serial_number__equals=${sn}`);
    const res = await admin.get(`${XT1}details/?filter=${filter}`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = z.array(ZTagExtended).parse(res.json());
    return rows.find((r) => r.id === id)!;
  };

  const startAudits = (recordId: string) =>
    t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'calibration.expired_start'),
          eq(auditEvents.recordId, Number(recordId)),
        ),
      );

  beforeAll(async () => {
    t = await createTestApp();
    ({ client: admin, device, org } = await deviceUser(t));
    ({ client: stranger, device: strangerDevice } = await deviceUser(t));
  });
  afterAll(() => t.close());

  it('a certificate without a due date is due after the validity; one with states its own', async () => {
    const tag = await xt1Tag();
    const res = await upload(admin, tag.id, '2024-02-29T10:00:00+01:00');
    expect(res.statusCode, res.body).toBe(200);
    const list = await admin.get(`${CALIBRATION}?device_id=${tag.id}`);
    expect(list.json()[0].calibration_due).toBe('2025-02-28T09:00:00.000Z');

    // The organization's validity counts for later uploads only.
    expect((await settings(admin, { calibration_validity_months: 6 })).statusCode).toBe(200);
    await upload(admin, tag.id, '2025-03-01T00:00:00Z');
    await upload(admin, tag.id, '2025-04-01T00:00:00Z', '2025-05-01T00:00:00Z');
    const dues = (await admin.get(`${CALIBRATION}?device_id=${tag.id}`))
      .json()
      .map((c: { calibration_due: string }) => c.calibration_due);
    expect(dues).toEqual([
      '2025-05-01T00:00:00.000Z',
      '2025-09-01T00:00:00.000Z',
      '2025-02-28T09:00:00.000Z',
    ]);
    expect((await settings(admin, { calibration_validity_months: 12 })).statusCode).toBe(200);

    // The PDF shows it.
    const summary = (await admin.get(`${CALIBRATION}?device_id=${tag.id}`)).json()[0];
    const pdf = await admin.get(summary.pdf_url);
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], {
      input: pdf.rawPayload,
    }).toString();
    expect(text).toContain('Next calibration due');
    expect(text).toContain('05/01/2025, 00:00:00');
  });

  it('refuses a due date not after the calibration, naming the field', async () => {
    const tag = await xt1Tag();
    const res = await upload(admin, tag.id, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(['calibrated_devices.0.calibration_due']);
    const bad = await upload(admin, tag.id, '2026-01-01T00:00:00Z', 'next year');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(['calibrated_devices.0.calibration_due']);
  });

  it('the devices list shows each state now', async () => {
    const now = Date.now();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const none = await xt1Tag();
    const valid = await xt1Tag();
    const soon = await xt1Tag();
    const expired = await xt1Tag();
    await upload(admin, valid.id, at(-DAY * 1000), at(31 * DAY * 1000));
    await upload(admin, soon.id, at(-DAY * 1000), at(29 * DAY * 1000));
    await upload(admin, expired.id, at(-400 * DAY * 1000), at(-60_000));
    expect(await tagRow(none)).toMatchObject({
      calibration_state: 'NONE',
      calibration_due: null,
    });
    expect(await tagRow(valid)).toMatchObject({
      calibration_state: 'VALID',
      calibration_due: at(31 * DAY * 1000),
    });
    expect((await tagRow(soon)).calibration_state).toBe('DUE_SOON');
    expect((await tagRow(expired)).calibration_state).toBe('EXPIRED');

    // The window is the organization's.
    expect((await settings(admin, { calibration_due_soon_days: 40 })).statusCode).toBe(200);
    expect((await tagRow(valid)).calibration_state).toBe('DUE_SOON');
    expect((await settings(admin, { calibration_due_soon_days: 30 })).statusCode).toBe(200);
  });

  it('a record shows the state at its start, exact at each boundary', async () => {
    const due = epoch(new Date()) - 10 * DAY;
    const cases: [number, string][] = [
      [due - 30 * DAY - 1, 'VALID'],
      [due - 30 * DAY, 'DUE_SOON'],
      [due - 1, 'DUE_SOON'],
      [due, 'EXPIRED'],
    ];
    for (const [start, state] of cases) {
      const tag = await xt1Tag();
      await upload(admin, tag.id, iso(due - 365 * DAY), iso(due));
      const res = await device.post(
        `${XT1}start-action/`,
        xt1Body(tag.sn, { start_time_seconds: start, timestamp: iso(start) }),
      );
      expect(res.statusCode, res.body).toBe(200);
      const shown = await record(res.json().record_id);
      expect(shown.calibration_state, `start ${start - due} s from due`).toBe(state);
      expect(shown.calibration_due).toBe(new Date(due * 1000).toISOString());
      expect(shown.tag_calibration?.calibration_due).toBe(new Date(due * 1000).toISOString());
    }
  });

  it('a certificate of a later calibration does not cover an earlier start', async () => {
    const tag = await xt1Tag();
    const start = epoch(new Date()) - 2 * DAY;
    await upload(admin, tag.id, iso(start + DAY), iso(start + 400 * DAY));
    const res = await device.post(
      `${XT1}start-action/`,
      xt1Body(tag.sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    const shown = await record(res.json().record_id);
    expect(shown.calibration_state).toBe('NONE');
    expect(shown.calibration_due).toBeNull();
    expect((await tagRow(tag)).calibration_state).toBe('VALID');
  });

  it('WARN (the default) starts on an expired tag and records the warning, once', async () => {
    const tag = await xt1Tag();
    const start = epoch(new Date()) - 3600;
    await upload(admin, tag.id, iso(start - 400 * DAY), iso(start - DAY));
    const res = await device.post(
      `${XT1}start-action/`,
      xt1Body(tag.sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const shown = await record(res.json().record_id);
    const reason = `Tag ${tag.sn}'s calibration expired on ${iso(start - DAY)}`;
    expect(shown).toMatchObject({ calibration_state: 'EXPIRED', calibration_warning: reason });
    const audits = await startAudits(res.json().record_id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      organizationId: org.id,
      reason,
      entityType: 'record',
      field: 'calibration_due',
      newValue: iso(start - DAY),
    });
    // The same start again is a replay: no second entry.
    await device.post(
      `${XT1}start-action/`,
      xt1Body(tag.sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    expect(await startAudits(res.json().record_id)).toHaveLength(1);
    // A tag in calibration starts without a warning.
    const fine = await xt1Tag();
    await upload(admin, fine.id, iso(start - DAY), iso(start + 300 * DAY));
    const ok = await device.post(
      `${XT1}start-action/`,
      xt1Body(fine.sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    expect((await record(ok.json().record_id)).calibration_warning).toBeNull();
    expect(await startAudits(ok.json().record_id)).toHaveLength(0);
  });

  it('REFUSE answers 409 naming tag_id on every start path and stores nothing', async () => {
    const changed = await settings(admin, { expired_calibration_start: 'REFUSE' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().calibration_settings.expired_calibration_start).toBe('REFUSE');
    const start = epoch(new Date()) - 3600;
    const expectRefused = (
      res: { statusCode: number; json(): { code?: string; fields?: unknown } },
      sn: string,
      due: number,
    ) => {
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('CONFLICT');
      expect(res.json().fields).toEqual({
        tag_id: `Tag ${sn}'s calibration expired on ${iso(due)}`,
      });
    };

    // xt1 start action.
    const x = await xt1Tag();
    await upload(admin, x.id, iso(start - 400 * DAY), iso(start - 1));
    const refused = await device.post(
      `${XT1}start-action/`,
      xt1Body(x.sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    expectRefused(refused, x.sn, start - 1);
    expect(await recordOf(t.db, x.pendingId)).toMatchObject({
      startTimeSeconds: null,
      calibrationWarning: null,
    });
    const actions = await t.db
      .select()
      .from(recordActions)
      .where(eq(recordActions.recordId, Number(x.pendingId)));
    expect(actions.length).toBeGreaterThan(0); // the configuration's
    expect(actions.map((a) => a.actionType)).not.toContain('START');
    expect((await tagBySerial(t.db, x.sn))!.running).toBe(false);

    // rt start action.
    const rtSn = serial('RTCAL');
    const configured = await device.post(`${RT}configure-action/`, {
      tag_id: rtSn,
      measurement_interval: 60,
      max_transmit_interval: 600,
    });
    expect(configured.statusCode, configured.body).toBe(200);
    const rtTag = await tagBySerial(t.db, rtSn);
    await upload(admin, rtTag!.id, iso(start - 400 * DAY), iso(start - 10));
    expectRefused(
      await device.post(`${RT}start-action/`, { tag_id: rtSn, start_time_seconds: start }),
      rtSn,
      start - 10,
    );
    expect((await recordOf(t.db, configured.json().record_id)).startTimeSeconds).toBeNull();

    // nanotag first sample.
    const nanoSn = serial('NANOCAL');
    await device.post(`${NANOTAG}generalized-data/`, {
      tag_id: nanoSn,
      measurement_interval: 300,
      start_delay: 0,
    });
    const nanoConfigured = await device.post(`${NANOTAG}configure-action/`, {
      tag_id: nanoSn,
      record_period_seconds: 120,
      report_period_seconds: 900,
    });
    expect(nanoConfigured.statusCode, nanoConfigured.body).toBe(200);
    const nanoTag = await tagBySerial(t.db, nanoSn);
    await upload(admin, nanoTag!.id, iso(start - 400 * DAY), iso(start - 20));
    expectRefused(
      await device.post(`${NANOTAG}first-sample-action/`, {
        tag_id: nanoSn,
        first_sample_timestamp: iso(start),
      }),
      nanoSn,
      start - 20,
    );
    expect((await recordOf(t.db, nanoConfigured.json().record_id)).startTimeSeconds).toBeNull();

    // A tag in calibration still starts.
    const fine = await xt1Tag();
    await upload(admin, fine.id, iso(start - DAY), iso(start + 300 * DAY));
    const ok = await device.post(
      `${XT1}start-action/`,
      xt1Body(fine.sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await settings(admin, { expired_calibration_start: 'WARN' })).statusCode).toBe(200);
  });

  it("another organization's certificate for the same tag never counts", async () => {
    const tag = await xt1Tag();
    // A certificate row of another organization naming this tag id (written as the owner could).
    const otherOrg = await t.createOrg();
    const [certificate] = await t.db
      .insert(calibrationCertificates)
      .values({ organizationId: otherOrg.id, modelName: 'foreign', createdByName: 'Someone' })
      .returning();
    await t.db.insert(calibrationCertificateDevices).values({
      certificateId: certificate!.id,
      organizationId: otherOrg.id,
      tagId: tag.id,
      calibrationTimestamp: new Date(Date.now() - 400 * DAY * 1000),
      calibrationDue: new Date(Date.now() - DAY * 1000),
    });
    expect((await tagRow(tag)).calibration_state).toBe('NONE');
    const start = epoch(new Date()) - 3600;
    const res = await device.post(
      `${XT1}start-action/`,
      xt1Body(tag.sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    const shown = await record(res.json().record_id);
    expect(shown).toMatchObject({ calibration_state: 'NONE', calibration_warning: null });

    // The other organization's REFUSE does not apply here, and ours not there.
    const theirs = await xt1Tag(strangerDevice);
    expect(theirs.id).not.toBe(tag.id);
    expect((await settings(stranger, { expired_calibration_start: 'REFUSE' })).statusCode).toBe(
      200,
    );
    expect((await admin.get(ORG_SETTINGS)).json().calibration_settings).toEqual({
      calibration_validity_months: 12,
      calibration_due_soon_days: 30,
      expired_calibration_start: 'WARN',
    });
  });

  it('bad settings answer 400 naming the field, and change nothing', async () => {
    const before = (await admin.get(ORG_SETTINGS)).json();
    const cases: [Record<string, unknown>, string][] = [
      [{ calibration_validity_months: 0 }, 'calibration_settings.calibration_validity_months'],
      [{ calibration_validity_months: 1.5 }, 'calibration_settings.calibration_validity_months'],
      [{ calibration_validity_months: 121 }, 'calibration_settings.calibration_validity_months'],
      [{ calibration_due_soon_days: -1 }, 'calibration_settings.calibration_due_soon_days'],
      [{ calibration_due_soon_days: '30' }, 'calibration_settings.calibration_due_soon_days'],
      [{ expired_calibration_start: 'BLOCK' }, 'calibration_settings.expired_calibration_start'],
      [{}, 'calibration_settings'],
    ];
    for (const [body, field] of cases) {
      const res = await settings(admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields), JSON.stringify(body)).toEqual([field]);
    }
    expect((await admin.get(ORG_SETTINGS)).json()).toEqual(before);
    // A Viewer may not change them.
    const { client: viewer } = await t.signIn({ role: 'Viewer', orgs: [org] });
    expect((await settings(viewer, { calibration_due_soon_days: 10 })).statusCode).toBe(403);
  });

  it('a change of the settings is audited', async () => {
    await settings(admin, { calibration_due_soon_days: 14 });
    const rows = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, org.id),
          eq(auditEvents.action, 'calibration_settings.update'),
          eq(auditEvents.field, 'calibration_due_soon_days'),
        ),
      );
    expect(rows.at(-1)).toMatchObject({ oldValue: 30, newValue: 14 });
    await settings(admin, { calibration_due_soon_days: 30 });
  });
});

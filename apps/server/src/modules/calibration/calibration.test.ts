import { execFileSync } from 'node:child_process';
import { ZCalibrationSummary, ZCalibrationUploadReply } from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { auditEvents } from '../../db/schema-audit';
import { createTestApp, type TestApp, type TestClient, type TestOrg } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';

const CALIBRATION = '/api/devices/xt1/calibration/';

describe('calibration certificates [FEAT-CALIBRATION, SPEC-7.2]', () => {
  let t: TestApp;
  let org: TestOrg;
  let manager: TestClient;
  let viewer: TestClient;
  let stranger: TestClient;
  let tagA: { id: number; serialNumber: string };
  let tagB: { id: number; serialNumber: string };
  let foreignTag: { id: number };

  const upload = (deviceIds: number[], extra: Record<string, unknown> = {}) => ({
    model_name: 'XT1 NFC MU rev. B',
    equipment: [
      {
        manufacturer: 'Fluke',
        model: '1524',
        serial_number: 'FL-99812',
        description: 'Reference thermometer, ISO 17025',
      },
    ],
    specifications: [{ temperature_range_low: -30, temperature_range_high: 50, dut_error: 0.5 }],
    calibrated_devices: deviceIds.map((id) => ({
      device_id: id,
      tag_type: 'XT1_NFC_MU',
      calibration_timestamp: '2026-06-15T09:30:00Z',
    })),
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({ role: 'Manager' });
    org = signedIn.orgs[0]!;
    manager = signedIn.client;
    ({ client: viewer } = await t.signIn({ role: 'Viewer', orgs: [org] }));
    const other = await t.signIn({ role: 'Administrator' });
    stranger = other.client;
    const f = recordFactories(t.db);
    tagA = await f.tag(org);
    tagB = await f.tag(org);
    foreignTag = await f.tag(other.orgs[0]!);
  });
  afterAll(() => t.close());

  it('uploads a certificate for two tags, audited, and links each PDF', async () => {
    const res = await manager.post(CALIBRATION, upload([tagA.id, tagB.id]));
    expect(res.statusCode, res.body).toBe(200);
    const reply = ZCalibrationUploadReply.parse(res.json());
    expect(reply.devices.map((d) => d.device_id)).toEqual([tagA.id, tagB.id]);
    expect(reply.pdf_url).toBe(
      `${CALIBRATION}pdf/?calibration_pdf_id=${reply.calibration_pdf_id}&device_id=${tagA.id}`,
    );
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.organizationId, org.id), eq(auditEvents.action, 'calibration.upload')),
      );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.entityId).toBe(reply.calibration_pdf_id);

    const pdf = await viewer.get(reply.devices[1]!.pdf_url);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`calibration-${tagB.serialNumber}.pdf`);
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], {
      input: pdf.rawPayload,
    }).toString();
    expect(text).toContain('Calibration certificate');
    expect(text).toContain(tagB.serialNumber);
    expect(text).toContain('06/15/2026, 09:30:00');
    expect(text).toContain('FL-99812');
    expect(text).toContain('-30.0 °C');
    expect(text).toContain('± 0.5 °C');
  });

  it("lists a tag's certificates, latest calibration first, for any member", async () => {
    const newer = await manager.post(
      CALIBRATION,
      upload([tagA.id], {
        calibrated_devices: [{ device_id: tagA.id, calibration_timestamp: '2026-09-01T00:00:00Z' }],
      }),
    );
    expect(newer.statusCode, newer.body).toBe(200);
    const res = await viewer.get(`${CALIBRATION}?device_id=${tagA.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const list = z.array(ZCalibrationSummary).parse(res.json());
    expect(list.map((c) => c.calibration_timestamp)).toEqual([
      '2026-09-01T00:00:00.000Z',
      '2026-06-15T09:30:00.000Z',
    ]);
    expect(list[0]!.calibration_pdf_id).toBe(newer.json().calibration_pdf_id);
    expect(list[0]!.tag_type).toBe('XT1_NFC_MU');
  });

  it("without device_id lists every tag's certificates, by tag, the replaced ones kept", async () => {
    const before = z.array(ZCalibrationSummary).parse((await viewer.get(CALIBRATION)).json());
    const replacement = await manager.post(
      CALIBRATION,
      upload([tagB.id], {
        model_name: 'XT1 NFC MU rev. C',
        calibrated_devices: [{ device_id: tagB.id, calibration_timestamp: '2026-10-01T00:00:00Z' }],
      }),
    );
    expect(replacement.statusCode, replacement.body).toBe(200);
    const res = await viewer.get(CALIBRATION);
    expect(res.statusCode, res.body).toBe(200);
    const list = z.array(ZCalibrationSummary).parse(res.json());
    expect(list).toHaveLength(before.length + 1);
    // The organization's tags only, each one's rows together, latest calibration first.
    expect(new Set(list.map((c) => c.device_id))).toEqual(new Set([tagA.id, tagB.id]));
    const ofB = list.filter((c) => c.device_id === tagB.id);
    expect(ofB[0]).toMatchObject({
      calibration_pdf_id: replacement.json().calibration_pdf_id,
      serial_number: tagB.serialNumber,
      model_name: 'XT1 NFC MU rev. C',
      calibration_timestamp: '2026-10-01T00:00:00.000Z',
      created_by_name: expect.stringMatching(/\S/),
    });
    expect(ofB.slice(1).map((c) => c.calibration_timestamp)).toEqual(
      before.filter((c) => c.device_id === tagB.id).map((c) => c.calibration_timestamp),
    );
    const tagOrder = list.map((c) => c.serial_number);
    expect(tagOrder).toEqual([...tagOrder].sort());
    const strangers = z.array(ZCalibrationSummary).parse((await stranger.get(CALIBRATION)).json());
    expect(strangers).toEqual([]);
  });

  it('the list is paged: pages in order, the total in x-total-count, a bad page_size named', async () => {
    const all = z.array(ZCalibrationSummary).parse((await viewer.get(CALIBRATION)).json());
    expect(all.length).toBeGreaterThanOrEqual(3);
    const pages = [];
    for (let page = 1; page <= all.length; page++) {
      const res = await viewer.get(`${CALIBRATION}?page_size=1&page_number=${page}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['x-total-count']).toBe(String(all.length));
      pages.push(...z.array(ZCalibrationSummary).parse(res.json()));
    }
    expect(pages).toEqual(all);
    const past = await viewer.get(`${CALIBRATION}?page_size=2&page_number=99`);
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe(String(all.length));
    const bad = await viewer.get(`${CALIBRATION}?page_size=0`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(['page_size']);
  });

  it('needs sysConfigCreate to upload', async () => {
    const res = await viewer.post(CALIBRATION, upload([tagA.id]));
    expect(res.statusCode).toBe(403);
  });

  it('bad input names the field', async () => {
    const noDevices = await manager.post(CALIBRATION, upload([]));
    expect(noDevices.statusCode).toBe(400);
    expect(Object.keys(noDevices.json().fields)).toEqual(['calibrated_devices']);
    const noModel = await manager.post(CALIBRATION, upload([tagA.id], { model_name: ' ' }));
    expect(noModel.statusCode).toBe(400);
    expect(Object.keys(noModel.json().fields)).toEqual(['model_name']);
    const range = await manager.post(
      CALIBRATION,
      upload([tagA.id], {
        specifications: [{ temperature_range_low: 10, temperature_range_high: 0 }],
      }),
    );
    expect(range.statusCode).toBe(400);
    expect(Object.keys(range.json().fields)).toEqual(['specifications.0.temperature_range_low']);
    const twice = await manager.post(CALIBRATION, upload([tagA.id, tagA.id]));
    expect(twice.statusCode).toBe(400);
    const badQuery = await viewer.get(`${CALIBRATION}pdf/?calibration_pdf_id=x&device_id=abc`);
    expect(badQuery.statusCode).toBe(400);
    expect(Object.keys(badQuery.json().fields)).toEqual(['device_id']);
  });

  it("another organization's tags and certificates answer 404", async () => {
    const foreign = await manager.post(CALIBRATION, upload([tagA.id, foreignTag.id]));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().fields).toEqual({ calibrated_devices: `Tag ${foreignTag.id} not found` });
    const mine = ZCalibrationUploadReply.parse(
      (await manager.post(CALIBRATION, upload([tagA.id]))).json(),
    );
    expect((await stranger.get(mine.pdf_url!)).statusCode).toBe(404);
    expect((await stranger.get(`${CALIBRATION}?device_id=${tagA.id}`)).statusCode).toBe(404);
    // A device the certificate does not list.
    const other = await viewer.get(
      `${CALIBRATION}pdf/?calibration_pdf_id=${mine.calibration_pdf_id}&device_id=${tagB.id}`,
    );
    expect(other.statusCode).toBe(404);
    expect(Object.keys(other.json().fields)).toEqual(['device_id']);
  });
});

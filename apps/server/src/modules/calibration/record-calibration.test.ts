import { ZRecord } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibrationCertificateDevices, calibrationCertificates } from '../../db/schema-reports';
import type { TagRow } from '../../db/schema-shipments';
import { createTestApp, type TestApp, type TestClient, type TestOrg } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';

const CALIBRATION = '/api/devices/xt1/calibration/';

/** Issue 11: a record's tag_calibration is its tag's latest certificate in the organization. */
describe('Record.tag_calibration [FEAT-CALIBRATION, SPEC-3]', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let manager: TestClient;
  let tag: TagRow;
  let recordId: string;

  const upload = (deviceId: number, calibratedAt: string) =>
    manager.post(CALIBRATION, {
      model_name: 'XT1 NFC MU rev. B',
      equipment: [],
      specifications: [],
      calibrated_devices: [
        { device_id: deviceId, tag_type: 'XT1_NFC_MU', calibration_timestamp: calibratedAt },
      ],
    });

  const record = async () => {
    const res = await manager.get(`/api/devices/xt1/record/?record_id=${recordId}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZRecord.parse(res.json());
  };

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({ role: 'Manager' });
    org = signedIn.orgs[0]!;
    manager = signedIn.client;
    other = await t.createOrg();
    const f = recordFactories(t.db);
    tag = await f.tag(org, { tagType: 'XT1_NFC_MU' });
    recordId = String((await f.record(org, tag)).id);
  });
  afterAll(() => t.close());

  it('is null before any certificate, then names the latest calibration of the tag', async () => {
    expect((await record()).tag_calibration).toBeNull();

    const first = await upload(tag.id, '2026-01-10T08:00:00Z');
    expect(first.statusCode, first.body).toBe(200);
    const firstId = first.json().calibration_pdf_id as string;
    expect((await record()).tag_calibration).toEqual({
      device_id: tag.id,
      tag_type: 'XT1_NFC_MU',
      calibration_timestamp: '2026-01-10T08:00:00.000Z',
      calibration_pdf_id: firstId,
      pdf_url: `${CALIBRATION}pdf/?calibration_pdf_id=${firstId}&device_id=${tag.id}`,
      // Issue 14 item 7: no due date given, so 12 months (the default validity) later.
      calibration_due: '2027-01-10T08:00:00.000Z',
    });

    // A later calibration replaces it; an older certificate uploaded afterwards does not.
    const later = await upload(tag.id, '2026-06-15T09:30:00Z');
    const laterId = later.json().calibration_pdf_id as string;
    const older = await upload(tag.id, '2025-03-01T00:00:00Z');
    expect(older.statusCode, older.body).toBe(200);
    const shown = (await record()).tag_calibration;
    expect(shown?.calibration_pdf_id).toBe(laterId);
    expect(shown?.calibration_timestamp).toBe('2026-06-15T09:30:00.000Z');

    // Its link opens the certificate.
    const pdf = await manager.get(shown!.pdf_url!);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');

    // The list and the latest-record lookup say the same.
    const list = await manager.get('/api/devices/xt1/records/');
    const listed = (list.json() as { id: string }[]).find((r) => r.id === recordId);
    expect(ZRecord.parse(listed).tag_calibration).toEqual(shown);
    const latest = await manager.get(
      `/api/devices/xt1/latest-record/?tag_id_or_serial_number=${tag.serialNumber}`,
    );
    expect(ZRecord.parse(latest.json()).tag_calibration).toEqual(shown);
  });

  it("another organization's certificate naming the same tag id is never shown", async () => {
    const [certificate] = await t.db
      .insert(calibrationCertificates)
      .values({ organizationId: other.id, modelName: 'foreign', createdByName: 'Someone Else' })
      .returning();
    await t.db.insert(calibrationCertificateDevices).values({
      certificateId: certificate!.id,
      organizationId: other.id,
      tagId: tag.id,
      tagType: 'XT1_NFC_MU',
      calibrationTimestamp: new Date('2030-01-01T00:00:00Z'),
      calibrationDue: new Date('2031-01-01T00:00:00Z'),
    });
    const shown = (await record()).tag_calibration;
    expect(shown).not.toBeNull();
    expect(shown?.calibration_pdf_id).not.toBe(certificate!.id);
    expect(shown?.calibration_timestamp).toBe('2026-06-15T09:30:00.000Z');
  });
});

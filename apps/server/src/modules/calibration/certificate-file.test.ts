import { createHash } from 'node:crypto';
import {
  MAX_CALIBRATION_FILE_BYTES,
  ZCalibrationSummary,
  ZCalibrationUploadReply,
} from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { auditEvents } from '../../db/schema-audit';
import { calibrationCertificateFiles } from '../../db/schema-reports';
import { createTestApp, type TestApp, type TestClient, type TestOrg } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { labFileName } from './service';

const CALIBRATION = '/api/devices/xt1/calibration/';
const FILE = `${CALIBRATION}file/`;

/** A small PDF as a calibration lab would send it (only its first bytes are checked). */
const labPdf = (text: string) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\n\u00e9\u0000\u00ff binary\n%%EOF\n`,
    'latin1',
  );

describe("the calibration lab's PDF of a certificate [FEAT-CALIBRATION]", () => {
  let t: TestApp;
  let org: TestOrg;
  let manager: TestClient;
  let viewer: TestClient;
  let stranger: TestClient;
  let certificateId: string;
  let pdfUrl: string;

  const attach = (
    client: TestClient,
    id: string,
    body: Buffer | string,
    opts: { fileName?: string; contentType?: string } = {},
  ) =>
    client.request({
      method: 'POST',
      url: `${FILE}?calibration_pdf_id=${id}${opts.fileName ? `&file_name=${encodeURIComponent(opts.fileName)}` : ''}`,
      headers: { 'content-type': opts.contentType ?? 'application/pdf' },
      payload: body,
    });

  const filesOf = (id: string) =>
    t.db
      .select()
      .from(calibrationCertificateFiles)
      .where(eq(calibrationCertificateFiles.certificateId, id))
      .orderBy(calibrationCertificateFiles.id);

  const listed = async (deviceId: number) => {
    const res = await viewer.get(`${CALIBRATION}?device_id=${deviceId}`);
    expect(res.statusCode, res.body).toBe(200);
    return z.array(ZCalibrationSummary).parse(res.json());
  };

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({ role: 'Manager' });
    org = signedIn.orgs[0]!;
    manager = signedIn.client;
    ({ client: viewer } = await t.signIn({ role: 'Viewer', orgs: [org] }));
    ({ client: stranger } = await t.signIn({ role: 'Administrator' }));
    const tag = await recordFactories(t.db).tag(org);
    const res = await manager.post(CALIBRATION, {
      model_name: 'XT1 NFC MU rev. B',
      calibrated_devices: [{ device_id: tag.id, calibration_timestamp: '2026-06-15T09:30:00Z' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const reply = ZCalibrationUploadReply.parse(res.json());
    certificateId = reply.calibration_pdf_id;
    pdfUrl = reply.devices[0]!.pdf_url;
  });
  afterAll(() => t.close());

  it('without a lab PDF the list says so and the PDF is the drawn one', async () => {
    const [item] = await listed(Number(new URL(pdfUrl, 'http://x').searchParams.get('device_id')));
    expect(item!.lab_pdf).toBeNull();
    const pdf = await viewer.get(pdfUrl);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.headers['content-disposition']).toMatch(/calibration-/);
  });

  it('uploads the PDF: stored, audited with its SHA-256, listed, and served byte for byte', async () => {
    const body = labPdf('first');
    const sha256 = createHash('sha256').update(body).digest('hex');
    const res = await attach(manager, certificateId, body, {
      fileName: 'C:\\fakepath\\Lab cert 2026.pdf',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      calibration_pdf_id: certificateId,
      lab_pdf: { file_name: 'Lab cert 2026.pdf', sha256, size: body.length },
    });

    const rows = await filesOf(certificateId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.organizationId).toBe(org.id);
    expect(Buffer.compare(rows[0]!.content, body)).toBe(0);

    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, org.id),
          eq(auditEvents.action, 'calibration.file.upload'),
        ),
      );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.entityId).toBe(certificateId);
    expect(audit[0]!.newValue).toEqual({
      file_name: 'Lab cert 2026.pdf',
      sha256,
      size: body.length,
    });

    const deviceId = Number(new URL(pdfUrl, 'http://x').searchParams.get('device_id'));
    const [item] = await listed(deviceId);
    expect(item!.lab_pdf).toMatchObject({ file_name: 'Lab cert 2026.pdf', sha256 });
    expect(item!.lab_pdf!.uploaded_by_name).not.toBe('');

    const pdf = await viewer.get(pdfUrl);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain('Lab cert 2026.pdf');
    expect(Buffer.compare(pdf.rawPayload, body)).toBe(0);
  });

  it('a replacement is a new row: the older one is kept, the newer one served', async () => {
    const before = await filesOf(certificateId);
    const body = labPdf('second, corrected by the lab');
    const res = await attach(manager, certificateId, body, { fileName: 'corrected.pdf' });
    expect(res.statusCode, res.body).toBe(200);

    const rows = await filesOf(certificateId);
    expect(rows).toHaveLength(before.length + 1);
    // The earlier row is untouched.
    expect(rows.slice(0, before.length)).toEqual(before);
    expect(rows.at(-1)!.fileName).toBe('corrected.pdf');

    const pdf = await viewer.get(pdfUrl);
    expect(Buffer.compare(pdf.rawPayload, body)).toBe(0);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, org.id),
          eq(auditEvents.action, 'calibration.file.upload'),
        ),
      )
      .orderBy(auditEvents.id);
    expect(audit).toHaveLength(2);
    expect(audit[1]!.oldValue).toMatchObject({ file_name: 'Lab cert 2026.pdf' });
  });

  it('a body that is not a PDF answers 400 naming body; nothing is stored', async () => {
    const before = (await filesOf(certificateId)).length;
    const res = await attach(manager, certificateId, Buffer.from('GIF89a not a pdf'));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: { body: /%PDF-/ } });
    const empty = await attach(manager, certificateId, Buffer.alloc(0));
    expect(empty.statusCode, empty.body).toBe(400);
    expect(empty.json().fields).toHaveProperty('body');
    // JSON is not a file either.
    const json = await manager.request({
      method: 'POST',
      url: `${FILE}?calibration_pdf_id=${certificateId}`,
      payload: { pdf: '%PDF-1.4' },
    });
    expect(json.statusCode, json.body).toBe(400);
    expect(json.json().fields).toHaveProperty('body');
    const other = await attach(manager, certificateId, 'hello', { contentType: 'text/plain' });
    expect(other.statusCode, other.body).toBe(415);
    expect((await filesOf(certificateId)).length).toBe(before);
  });

  it('a body over the limit answers 413; nothing is stored', async () => {
    const before = (await filesOf(certificateId)).length;
    const big = Buffer.concat([labPdf('big'), Buffer.alloc(MAX_CALIBRATION_FILE_BYTES)]);
    const res = await attach(manager, certificateId, big);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((await filesOf(certificateId)).length).toBe(before);
    // Exactly the limit is taken.
    const exact = Buffer.concat([
      labPdf('exact'),
      Buffer.alloc(MAX_CALIBRATION_FILE_BYTES),
    ]).subarray(0, MAX_CALIBRATION_FILE_BYTES);
    const taken = await attach(manager, certificateId, exact);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().lab_pdf.size).toBe(MAX_CALIBRATION_FILE_BYTES);
  });

  it("another organization's certificate answers 404, a Viewer 403, an unknown id 404", async () => {
    const before = (await filesOf(certificateId)).length;
    const res = await attach(stranger, certificateId, labPdf('stolen'));
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().fields).toHaveProperty('calibration_pdf_id');
    expect((await attach(viewer, certificateId, labPdf('viewer'))).statusCode).toBe(403);
    const unknown = await attach(manager, 'not-a-uuid', labPdf('x'));
    expect(unknown.statusCode).toBe(404);
    const missing = await attach(manager, '00000000-0000-4000-8000-000000000000', labPdf('x'));
    expect(missing.statusCode).toBe(404);
    expect((await filesOf(certificateId)).length).toBe(before);
    // Nor does the other organization's list or download see it.
    const theirs = await stranger.get(pdfUrl);
    expect(theirs.statusCode).toBe(404);
  });

  it('the application role cannot change or remove a stored PDF', async () => {
    const refused = await t.handle.pool
      .query(`UPDATE calibration_certificate_files SET file_name = 'x' WHERE certificate_id = $1`, [
        certificateId,
      ])
      .then(
        () => undefined,
        (err: { code?: string }) => err.code,
      );
    expect(refused).toBe('42501');
  });

  it('keeps the last segment of the file name, without control characters', () => {
    expect(labFileName('/home/ada/lab.pdf')).toBe('lab.pdf');
    expect(labFileName(' a\u0007b.pdf ')).toBe('ab.pdf');
    expect(labFileName(undefined)).toBe('calibration-certificate.pdf');
    expect(labFileName('dir/')).toBe('calibration-certificate.pdf');
  });
});

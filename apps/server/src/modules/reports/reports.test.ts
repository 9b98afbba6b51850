import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { ZErrorReply, ZFileReference } from '@coldtrace/contract';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reports } from '../../db/schema-reports';
import { alarms } from '../../db/schema-shipments';
import { createTestApp, type TestApp, type TestClient, type TestOrg } from '../../../test/helpers';
import { epoch, iso, serial, xt1Body } from '../../../test/shipment-factories';
import { recordAudit } from '../../kernel/audit';
import { anchorOrganization, signingKeyFrom } from '../evidence';
import { contentDisposition, neutralise } from './report-model';
import { REPORT_JOB } from '../../jobs/catalogue';

const XT1 = '/api/devices/xt1';

/**
 * 12 points at 60 s, high 8 and low -5: an excursion above (points 2 to 4),
 * negative temperatures within range, nothing below.
 */
const TEMPS = [5, -1.5, 9, 9.5, 10.2, 5, -2.2, 4, 4.5, 5, 3.9, 4];
const COMMENT = 'Reviewed with QA: product released';

function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
}

describe('reports: PDF, CSV and XLSX of a record [RULE-REPORT-1, RULE-REPORT-2, SPEC-7.2]', () => {
  let t: TestApp;
  let org: TestOrg;
  let operator: TestClient;
  let operatorName: string;
  let viewer: TestClient;
  let stranger: TestClient;
  let recordId: string;
  let startSeconds: number;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({ role: 'Operator', firstName: 'Olga', lastName: 'Operator' });
    org = signedIn.orgs[0]!;
    operator = signedIn.client;
    operatorName = signedIn.user.username;
    ({ client: viewer } = await t.signIn({ role: 'Viewer', orgs: [org] }));
    ({ client: stranger } = await t.signIn({ role: 'Administrator' }));

    const sn = serial('RPT');
    startSeconds = epoch(new Date('2026-07-01T10:00:00Z'));
    const references = {
      primary_reference: 'PO-1',
      secondary_reference: '=HYPERLINK("http://evil")',
      shipping_reference: '-2+3',
      carrier: '@carrier',
      low_threshold: -5,
    };
    const started = await operator.post(
      `${XT1}/start-action/`,
      xt1Body(sn, {
        start_time_seconds: startSeconds,
        timestamp: iso(startSeconds),
        ...references,
      }),
    );
    expect(started.statusCode, started.body).toBe(200);
    recordId = started.json().record_id;
    const scanned = await operator.post(
      `${XT1}/scans/`,
      xt1Body(sn, {
        start_time_seconds: startSeconds,
        timestamp: iso(startSeconds + 900),
        temps: TEMPS,
        ...references,
      }),
    );
    expect(scanned.statusCode, scanned.body).toBe(200);
    // The acknowledgement as the alarm row holds it (the acknowledge call has its own tests).
    await t.db
      .update(alarms)
      .set({
        acknowledged: true,
        acknowledgedByUserId: signedIn.user.id,
        acknowledgedAt: new Date((startSeconds + 3600) * 1000),
        acknowledgeComment: COMMENT,
        acknowledgeClientType: 'WEB',
      })
      .where(eq(alarms.recordId, Number(recordId)));
    await recordAudit(
      t.db,
      {
        organizationId: org.id,
        actor: { userId: signedIn.user.id, name: 'Olga Operator', clientType: 'WEB' },
      },
      [
        {
          action: 'record.shipment.update',
          entityType: 'record',
          entityId: recordId,
          recordId: Number(recordId),
          field: 'carrier',
          oldValue: 'Road Express',
          newValue: '@carrier',
        },
      ],
    );
  });
  afterAll(() => t.close());

  async function generate(client: TestClient, kind: string, id = recordId) {
    const res = await client.post(`${XT1}/reports/${kind}/`, { record_id: id });
    expect(res.statusCode, res.body).toBe(200);
    return ZFileReference.parse(res.json());
  }

  async function download(client: TestClient, kind: string, id = recordId) {
    const ref = await generate(client, kind, id);
    expect(ref.localUrl).toMatch(new RegExp(`^/api/devices/xt1/reports/${kind}/\\?report_id=`));
    const res = await client.get(ref.localUrl!);
    expect(res.statusCode, res.body).toBe(200);
    return { ref, res, body: res.rawPayload };
  }

  it('PDF: the record id, the mean kinetic temperature, the excursion, the acknowledgement and the audit entry', async () => {
    const { ref, res, body } = await download(operator, 'pdf');
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(ref.fileName).toMatch(new RegExp(`^record-${recordId}-RPT-[0-9a-f]+\\.pdf$`));
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${ref.fileName}"; filename*=UTF-8''${ref.fileName}`,
    );
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(body);
    expect(text).toContain(`Temperature report: record ${recordId}`);
    expect(text).toMatch(/Mean kinetic\s+[\s\S]*temperature/);
    expect(text).toContain('High excursion');
    expect(text).toContain(`Acknowledged by ${operatorName}`);
    expect(text).toContain(COMMENT);
    expect(text).toMatch(/Shipment details\s+changed/);
    expect(text).toContain('Carrier: Road Express → @carrier');
    // The highest point, in °C with one decimal (the user's unit).
    expect(text).toContain('10.2 °C');
    // Summary temperatures with one decimal, whole numbers included.
    expect(text).toMatch(/Low threshold\s+\(°C\)\s+-5\.0\b/);
    expect(text).toMatch(/High threshold \(°C\)\s+8\.0\b/);
  });

  it("PDF: an alarm's e-signature shows the printed name, time, meaning and comment", async () => {
    const [alarm] = await t.db
      .select()
      .from(alarms)
      .where(eq(alarms.recordId, Number(recordId)));
    await t.db.execute(sql`
      insert into alarm_signatures
        (organization_id, alarm_id, record_id, user_id, printed_name, signed_at, meaning, comment, client_type)
      values (${org.id}, ${alarm!.id}, ${Number(recordId)}, ${alarm!.acknowledgedByUserId},
              'Olga Operator', ${new Date((startSeconds + 3600) * 1000)}, 'APPROVED', ${COMMENT}, 'WEB')`);
    const text = pdfText((await download(operator, 'pdf')).body);
    expect(text).toContain('Signed by Olga Operator, 07/01/2026, 11:00:00');
    expect(text).toContain('Meaning: Approved');
    expect(text).toContain(`Comment: ${COMMENT}`);
  });

  it('CSV: summary then one row per point, in the user unit and time zone; text cells neutralised, numbers not', async () => {
    const { client } = await t.signIn({ role: 'Viewer', orgs: [org] });
    expect(
      (
        await client.patch('/api/auth/user-settings/', {
          degrees_unit: 'F',
          timezone: 'America/New_York',
        })
      ).statusCode,
    ).toBe(200);
    const { res, body } = await download(client, 'csv');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const text = body.toString('utf8').replace(/^\uFEFF/, '');
    const lines = text.trimEnd().split('\n');
    expect(lines).toContain(`Record,${recordId}`);
    expect(lines).toContain(`Secondary reference,"'=HYPERLINK(""http://evil"")"`);
    expect(lines).toContain("Shipping reference,'-2+3");
    expect(lines).toContain("Carrier,'@carrier");
    expect(lines).toContain('High threshold (°F),46.4');
    expect(lines).toContain('Low threshold (°F),23.0');
    expect(lines).toContain('Time zone,America/New_York');
    const header = lines.indexOf('Index,Local time (America/New_York),Time (UTC),Temperature (°F)');
    expect(header).toBeGreaterThan(0);
    const rows = lines.slice(header + 1);
    expect(rows).toHaveLength(TEMPS.length);
    // 10:00 UTC is 06:00 in New York (summer time, UTC-4); -2.2 °C is 28.0 °F, 9.5 °C 49.1 °F.
    expect(rows[0]).toBe('0,2026-07-01T06:00:00-04:00,2026-07-01 10:00:00,41.0');
    expect(rows[3]).toBe('3,2026-07-01T06:03:00-04:00,2026-07-01 10:03:00,49.1');
    expect(rows[6]).toBe('6,2026-07-01T06:06:00-04:00,2026-07-01 10:06:00,28.0');
    // The summary's times too: ISO 8601 with the offset.
    expect(lines).toContain('First point,2026-07-01T06:00:00-04:00');
  });

  it("PDF and CSV print the record chain's last entry and the last signed anchor [FEAT-EVIDENCE-CHAIN]", async () => {
    await anchorOrganization(t.db, org.id, signingKeyFrom(t.config.secretKey));
    const chain = `record:${recordId}`;
    const { rows } = await t.db.execute<{ seq: string; hash: string }>(
      sql`SELECT seq, encode(hash, 'hex') AS hash FROM evidence_chain
           WHERE chain = ${chain} ORDER BY seq DESC LIMIT 1`,
    );
    const head = rows[0]!;
    const anchor = await t.db.execute<{ payload: string }>(
      sql`SELECT payload FROM evidence_anchors WHERE organization_id = ${org.id} ORDER BY id DESC LIMIT 1`,
    );
    const anchorHash = createHash('sha256').update(anchor.rows[0]!.payload).digest('hex');
    const expected = `${chain}, entry ${head.seq}, SHA-256 ${head.hash.slice(0, 16)}`;
    const pdf = pdfText((await download(operator, 'pdf')).body);
    expect(pdf).toMatch(/Evidence\s+Evidence chain/);
    expect(pdf).toContain(expected);
    expect(pdf).toContain(`SHA-256 ${anchorHash.slice(0, 16)}`);
    const csv = (await download(operator, 'csv')).body.toString('utf8').split('\n');
    expect(csv).toContain(`Evidence chain,"${expected}"`);
    expect(csv).toContain(`Evidence anchor,SHA-256 ${anchorHash.slice(0, 16)}`);
  });

  it('CSV: a negative temperature stays a number (no quote mark)', async () => {
    const { body } = await download(operator, 'csv');
    const rows = body.toString('utf8').trimEnd().split('\n');
    expect(rows).toContain('1,2026-07-01T10:01:00+00:00,2026-07-01 10:01:00,-1.5');
    expect(rows).toContain('6,2026-07-01T10:06:00+00:00,2026-07-01 10:06:00,-2.2');
  });

  it('XLSX: real date and number cells, text neutralised, the same summary', async () => {
    const { res, body } = await download(operator, 'xlsx');
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const byLabel = new Map<string, ExcelJS.CellValue>();
    let headerRow = 0;
    sheet.eachRow((row, n) => {
      const label = row.getCell(1).value;
      if (typeof label === 'string') byLabel.set(label, row.getCell(2).value);
      if (label === 'Index') headerRow = n;
    });
    expect(byLabel.get('Record')).toBe(recordId);
    expect(byLabel.get('Secondary reference')).toBe(`'=HYPERLINK("http://evil")`);
    expect(byLabel.get('High threshold (°C)')).toBe(8);
    expect(byLabel.get('Low threshold (°C)')).toBe(-5);
    expect(byLabel.get('Points')).toBe(TEMPS.length);
    expect(byLabel.get('First point')).toBeInstanceOf(Date);
    expect(typeof byLabel.get('Mean kinetic temperature (°C)')).toBe('number');
    expect(headerRow).toBeGreaterThan(0);
    expect((sheet.getRow(headerRow).values as unknown[]).slice(1)).toEqual([
      'Index',
      'Local time (UTC)',
      'UTC offset',
      'Time (UTC)',
      'Temperature (°C)',
    ]);
    // The operator reads UTC: the local time is the instant, offset +00:00.
    const first = sheet.getRow(headerRow + 1);
    expect(first.getCell(1).value).toBe(0);
    expect(first.getCell(2).value).toEqual(new Date('2026-07-01T10:00:00Z'));
    expect(first.getCell(2).numFmt).toBe('mm/dd/yyyy hh:mm:ss');
    expect(first.getCell(3).value).toBe('UTC+00:00');
    expect(first.getCell(4).value).toEqual(new Date('2026-07-01T10:00:00Z'));
    expect(first.getCell(4).numFmt).toBe('mm/dd/yyyy hh:mm:ss');
    const negative = sheet.getRow(headerRow + 7);
    expect(negative.getCell(1).value).toBe(6);
    expect(negative.getCell(5).value).toBe(-2.2);
    expect(negative.getCell(5).type).toBe(ExcelJS.ValueType.Number);
    expect(negative.getCell(5).numFmt).toBe('0.0');
    expect(sheet.rowCount).toBe(headerRow + TEMPS.length);
  });

  it('a Viewer may generate and download reports', async () => {
    const { body } = await download(viewer, 'pdf');
    expect(pdfText(body)).toContain(`record ${recordId}`);
  });

  it("the data display rule of the user's role applies: unit, decimals, hidden fields [FEAT-DISPLAY-RULES]", async () => {
    const { client: admin } = await t.signIn({ role: 'Administrator', orgs: [org] });
    const roles = (await admin.get('/api/auth/role-permissions/')).json() as {
      id: string;
      name: string;
    }[];
    const created = await admin.post('/api/data-display-rules/', {
      role_id: roles.find((r) => r.name === 'Viewer')!.id,
      degrees_unit: 'F',
      temperature_decimals: 2,
      hidden_fields: ['carrier', 'po_number'],
    });
    expect(created.statusCode, created.body).toBe(200);
    const ruled = pdfText((await download(viewer, 'pdf')).body);
    // 8 °C is 46.4 °F, shown with the rule's two decimals; carrier and PO number are not shown.
    expect(ruled).toMatch(/High threshold \(°F\)\s+46\.40\b/);
    expect(ruled).not.toContain('@carrier');
    expect(ruled).not.toContain('PO number');
    // The change of the carrier stays in the audit trail, its values hidden.
    expect(ruled).toContain('Carrier: (hidden) → (hidden)');
    // The operator (another role) still reads their own unit with one decimal and every field.
    const own = pdfText((await download(operator, 'pdf')).body);
    expect(own).toMatch(/High threshold \(°C\)\s+8\.0\b/);
    expect(own).toContain('@carrier');
  });

  it("another organization's record and report answer 404 [RULE-ORG-1]", async () => {
    const res = await stranger.post(`${XT1}/reports/pdf/`, { record_id: recordId });
    expect(res.statusCode).toBe(404);
    expect(ZErrorReply.parse(res.json()).fields).toEqual({
      record_id: `Record '${recordId}' not found`,
    });
    const ref = await generate(operator, 'csv');
    const stolen = await stranger.get(ref.localUrl!);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().code).toBe('NOT_FOUND');
    // The id of a CSV report is no PDF report.
    const reportId = new URL(ref.localUrl!, 'http://x').searchParams.get('report_id')!;
    const wrongKind = await operator.get(`${XT1}/reports/pdf/?report_id=${reportId}`);
    expect(wrongKind.statusCode).toBe(404);
  });

  it('bad input: a missing record id or report id is a 400 naming the field, a malformed one a 404', async () => {
    const noRecord = await operator.post(`${XT1}/reports/csv/`, {});
    expect(noRecord.statusCode).toBe(400);
    expect(Object.keys(noRecord.json().fields)).toEqual(['record_id']);
    const noReport = await operator.get(`${XT1}/reports/csv/`);
    expect(noReport.statusCode).toBe(400);
    expect(Object.keys(noReport.json().fields)).toEqual(['report_id']);
    const malformed = await operator.get(`${XT1}/reports/csv/?report_id=abc`);
    expect(malformed.statusCode).toBe(404);
    const unknownRecord = await operator.post(`${XT1}/reports/xlsx/`, { record_id: '999999999' });
    expect(unknownRecord.statusCode).toBe(404);
  });

  it('report files are deleted once older than REPORT_RETENTION_HOURS (default a week) [RULE-REPORT-4]', async () => {
    expect(t.app.config.reportRetentionHours).toBe(24 * 7);
    const { ref } = await download(operator, 'csv');
    const reportId = new URL(ref.localUrl!, 'http://x').searchParams.get('report_id')!;
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3_600_000);
    await t.db.update(reports).set({ created: eightDaysAgo }).where(eq(reports.id, reportId));
    // Still there until the next report is asked for.
    expect((await operator.get(ref.localUrl!)).statusCode).toBe(200);
    const { ref: newer } = await download(operator, 'csv');
    expect((await operator.get(ref.localUrl!)).statusCode).toBe(404);
    expect((await operator.get(newer.localUrl!)).statusCode).toBe(200);
  });

  it('a report not generated yet answers 409 "not ready" with Retry-After; the job then makes it ready', async () => {
    const [row] = await t.db
      .insert(reports)
      .values({
        organizationId: org.id,
        recordId: Number(recordId),
        kind: 'csv',
        fileName: 'pending.csv',
        degreesUnit: 'C',
        timeZone: 'UTC',
      })
      .returning();
    const res = await operator.get(`${XT1}/reports/csv/?report_id=${row!.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.json().fields).toEqual({ report_id: 'report not ready' });

    await t.app.jobs.send(REPORT_JOB, { reportId: row!.id });
    await t.app.jobs.waitForIdle([REPORT_JOB]);
    const ready = await operator.get(`${XT1}/reports/csv/?report_id=${row!.id}`);
    expect(ready.statusCode).toBe(200);
    const first = ready.rawPayload;

    // Idempotent: running the job again changes nothing.
    await t.app.jobs.send(REPORT_JOB, { reportId: row!.id });
    await t.app.jobs.waitForIdle([REPORT_JOB]);
    const again = await operator.get(`${XT1}/reports/csv/?report_id=${row!.id}`);
    expect(again.rawPayload.equals(first)).toBe(true);
  });
});

describe('report cells and file names [RULE-REPORT-1, RULE-REPORT-2, SPEC-7.2]', () => {
  it('neutralises text that a spreadsheet would run as a formula', () => {
    for (const text of ['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      expect(neutralise(text)).toBe(`'${text}`);
    }
    expect(neutralise('PO 1')).toBe('PO 1');
    expect(neutralise('')).toBe('');
  });

  it('writes an ASCII fallback and the exact name (RFC 5987) in Content-Disposition', () => {
    expect(contentDisposition('Bericht Kühlkette "1";.pdf')).toBe(
      `attachment; filename="Bericht K_hlkette _1__.pdf"; filename*=UTF-8''Bericht%20K%C3%BChlkette%20%221%22%3B.pdf`,
    );
    expect(contentDisposition('a\r\nb.csv')).toBe(
      `attachment; filename="a__b.csv"; filename*=UTF-8''a%0D%0Ab.csv`,
    );
  });
});

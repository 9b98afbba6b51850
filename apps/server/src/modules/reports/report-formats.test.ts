import { execFileSync } from 'node:child_process';
import { ZAuditEvent, ZFileReference } from '@coldtrace/contract';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { alarms } from '../../db/schema-shipments';
import { createTestApp, type TestApp, type TestClient } from '../../../test/helpers';
import { epoch, iso, serial, xt1Body } from '../../../test/shipment-factories';
import { auditDisplayer } from './audit-text';
import { verdictText, zonedIso, zonedText } from './report-times.fixtures';
import {
  acknowledgementSentence,
  alarmCountSentence,
  intervalText,
  type ReportAlarm,
} from './report-model';

const XT1 = '/api/devices/xt1';
const ZONE = 'America/New_York';
/** 8 points at 60 s; with the high threshold raised to 9, two excursions (points 1-2 and 5-6). */
const TEMPS = [5, 9.5, 9.6, 5, 5, 10, 10.5, 5];

function pdfText(pdf: Buffer, mode: 'layout' | 'reading' = 'layout'): string {
  const args = mode === 'layout' ? ['-layout', '-', '-'] : ['-', '-'];
  return execFileSync('pdftotext', args, { input: pdf }).toString('utf8');
}

/** pdftotext wraps table cells: compare with runs of white space made one space. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

/**
 * Issue 11, "Reports that can be filed": every format prints the audit trail
 * the same way (the reader's unit with one decimal and the unit, the reader's
 * zone en-US 24-hour, words instead of codes), durations in days, hours and
 * minutes, and the PDF closes with a verdict.
 */
describe('report formats tell the same story [RULE-REPORT-1, RULE-REPORT-2, FEAT-AUDIT-DISPLAY]', () => {
  let t: TestApp;
  let admin: TestClient;
  let adminId: string;
  let recordId: string;
  let start: number;
  let tripBegin: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({
      role: 'Administrator',
      firstName: 'Quality',
      lastName: 'Manager',
    });
    admin = signedIn.client;
    adminId = signedIn.user.id;
    const settings = await admin.patch('/api/auth/user-settings/', {
      degrees_unit: 'F',
      timezone: ZONE,
    });
    expect(settings.statusCode, settings.body).toBe(200);

    const sn = serial('FMT');
    start = epoch(new Date('2026-07-01T10:00:00Z'));
    tripBegin = iso(start);
    const started = await admin.post(
      `${XT1}/start-action/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    expect(started.statusCode, started.body).toBe(200);
    recordId = started.json().record_id;
    // Changes before any alarm exists (no reason asked).
    let res = await admin.post(`${XT1}/update-shipment-action/`, {
      record_id: recordId,
      high_threshold: 9,
      cumulative_duration_high: '00:45:00',
      timestamp: iso(start + 60),
    });
    expect(res.statusCode, res.body).toBe(200);
    res = await admin.post(`${XT1}/records/trips/`, {
      record_id: recordId,
      begin_time: tripBegin,
      timestamp: iso(start + 120),
    });
    expect(res.statusCode, res.body).toBe(200);
    res = await admin.post(
      `${XT1}/scans/`,
      xt1Body(sn, {
        start_time_seconds: start,
        timestamp: iso(start + 900),
        temps: TEMPS,
        high_threshold: 9,
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(() => t.close());

  async function download(kind: string): Promise<Buffer> {
    const made = await admin.post(`${XT1}/reports/${kind}/`, { record_id: recordId });
    expect(made.statusCode, made.body).toBe(200);
    const res = await admin.get(ZFileReference.parse(made.json()).localUrl!);
    expect(res.statusCode, res.body).toBe(200);
    return res.rawPayload;
  }

  async function auditEntries() {
    const res = await admin.get(`/api/audit/?page_size=1000&record_id=${recordId}`);
    expect(res.statusCode, res.body).toBe(200);
    return z.array(ZAuditEvent).parse(res.json());
  }

  async function recordAlarms() {
    const rows = await t.db
      .select()
      .from(alarms)
      .where(eq(alarms.recordId, Number(recordId)))
      .orderBy(alarms.id);
    expect(rows.length).toBe(2);
    return rows;
  }

  /**
   * The lines every format must carry (the audit entries as the reader reads them),
   * times with their offset: en-US in the PDF and XLSX, ISO 8601 in the CSV.
   */
  async function expectedChanges(write: (at: string, zone: string) => string = zonedText) {
    const entries = await auditEntries();
    const threshold = entries.find((e) => e.field === 'high_threshold');
    expect(threshold).toBeDefined();
    return {
      thresholdWhen: write(threshold!.occurred_at!, ZONE),
      changes: [
        // 8 °C → 9 °C in °F with one decimal and the unit.
        'High threshold: 46.4 °F → 48.2 °F',
        'Cumulative duration high: — → 45m',
        'Trip status: Not departed → In transit',
        `Trip begin: — → ${write(tripBegin, ZONE)}`,
      ],
    };
  }

  const CODES = ['IN_TRANSIT', 'NOT_DEPARTED', '00:45:00', '2026-07-01T10:00:00', ' -> '];

  it('PDF: the audit trail in °F, New York time and words', async () => {
    const pdf = await download('pdf');
    const text = pdfText(pdf);
    const { thresholdWhen, changes } = await expectedChanges();
    // A change wrapped in its table cell reads whole in reading order.
    for (const change of changes) expect(flat(pdfText(pdf, 'reading'))).toContain(change);
    // The time is wrapped in its column: its date, its clock and its offset, in New York.
    const [day, clock] = thresholdWhen.split(', ');
    expect(clock).toMatch(/^\d{2}:\d{2}:\d{2} UTC-0[45]:00$/);
    const trail = flat(text.slice(text.lastIndexOf('Audit trail')));
    expect(trail).toMatch(/When \(America\/ .*New_York\)/);
    expect(trail).toContain(`${day},`);
    expect(trail).toContain(clock!.split(' ')[0]);
    expect(trail).toContain(clock!.split(' ')[1]);
    expect(flat(text)).toContain('Shipment details');
    expect(flat(text)).toContain('Trip times changed');
    for (const code of CODES) expect(text).not.toContain(code);
  });

  it('CSV: the same audit trail, one decimal summary temperatures, durations in words', async () => {
    const text = (await download('csv')).toString('utf8').replace(/^\uFEFF/, '');
    const lines = text.trimEnd().split('\n');
    const { thresholdWhen, changes } = await expectedChanges(zonedIso);
    expect(lines).toContain(`When (${ZONE}),Who,What,Change (old → new),Reason`);
    expect(lines).toContain(
      `${thresholdWhen},Quality Manager,Shipment details changed,High threshold: 46.4 °F → 48.2 °F,`,
    );
    for (const change of changes) expect(text).toContain(change);
    for (const code of CODES) expect(text).not.toContain(code);
    // Summary temperatures with one decimal like the rows: 2 °C is 35.6 °F, 9 °C 48.2 °F, 10.5 °C 50.9 °F.
    expect(lines).toContain('High threshold (°F),48.2');
    expect(lines).toContain('Low threshold (°F),35.6');
    expect(lines).toContain('Highest (°F),50.9');
    expect(lines).toContain('Lowest (°F),41.0');
    // Durations and intervals in days, hours and minutes.
    expect(lines).toContain('Cumulative duration high,45m');
    expect(lines).toContain('Measurement interval,1m');
    expect(lines).toContain('Duration,7m');
  });

  it('XLSX: the same audit trail and durations', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await download('xlsx')) as unknown as ArrayBuffer);
    const sheetRows = (sheet: ExcelJS.Worksheet) => {
      const rows: string[][] = [];
      sheet.eachRow((row) => {
        const values: string[] = [];
        for (let c = 1; c <= 5; c++) {
          const v = row.getCell(c).value;
          values.push(v === null || v === undefined ? '' : String(v));
        }
        rows.push(values);
      });
      return rows;
    };
    expect(workbook.worksheets.map((w) => w.name)).toEqual([
      `Record ${recordId}`,
      'Alarms',
      'Audit trail',
    ]);
    const rows = sheetRows(workbook.getWorksheet('Audit trail')!);
    const summary = sheetRows(workbook.worksheets[0]!);
    const { thresholdWhen, changes } = await expectedChanges();
    expect(rows).toContainEqual([
      thresholdWhen,
      'Quality Manager',
      'Shipment details changed',
      'High threshold: 46.4 °F → 48.2 °F',
      '',
    ]);
    const changeColumn = rows.map((r) => r[3]);
    for (const change of changes) expect(changeColumn).toContain(change);
    const byLabel = new Map(summary.map((r) => [r[0], r[1]]));
    expect(byLabel.get('Cumulative duration high')).toBe('45m');
    expect(byLabel.get('Measurement interval')).toBe('1m');
    for (const code of ['IN_TRANSIT', 'NOT_DEPARTED', '00:45:00']) {
      expect([...rows, ...summary].flat().join('\n')).not.toContain(code);
    }
  });

  it('PDF: the verdict counts the alarms, lists the signatures and says whether all are acknowledged', async () => {
    let text = flat(pdfText(await download('pdf')));
    expect(text).toContain('Verdict');
    expect(text).toContain('2 alarms: 2 open, 0 closed.');
    expect(text).toContain('2 of 2 alarms are not acknowledged.');
    expect(text).toContain('No electronic signatures.');

    const [first, second] = await recordAlarms();
    const signedAt = new Date((start + 3600) * 1000);
    await t.db
      .update(alarms)
      .set({ acknowledged: true, acknowledgedByUserId: adminId, acknowledgedAt: signedAt })
      .where(eq(alarms.id, first!.id));
    await t.db.execute(sql`
      insert into alarm_signatures
        (organization_id, alarm_id, record_id, user_id, printed_name, signed_at, meaning, comment, client_type)
      values (${first!.organizationId}, ${first!.id}, ${Number(recordId)}, ${adminId},
              'Quality Manager', ${signedAt}, 'APPROVED', 'Checked', 'WEB')`);
    text = flat(pdfText(await download('pdf')));
    expect(text).toContain('1 of 2 alarms is not acknowledged.');
    const verdict = verdictText(text);
    expect(verdict).toContain('1 electronic signature: 1 acknowledgement, 0 closing changes.');
    expect(verdict).toContain(
      `#${first!.id} Acknowledgement Quality Manager ${zonedText(signedAt, ZONE)} Approved`,
    );

    await t.db
      .update(alarms)
      .set({ dismissed: true, dismissedAt: signedAt, acknowledged: true, acknowledgedAt: signedAt })
      .where(eq(alarms.id, second!.id));
    text = flat(pdfText(await download('pdf')));
    // A dismissal does not close an alarm: it is counted apart.
    expect(text).toContain('2 alarms: 2 open, 0 closed; 1 dismissed.');
    expect(text).toContain('All 2 alarms are acknowledged.');
  });
});

describe('audit entries as display text [RULE-REPORT-1, RULE-REPORT-2, FEAT-AUDIT-DISPLAY]', () => {
  const display = auditDisplayer({ unit: 'C', timeZone: 'Europe/Berlin' });
  const entry = (field: string | null, oldValue: unknown, newValue: unknown) =>
    display({
      occurredAt: new Date('2026-01-15T12:00:00Z'),
      actorName: 'Ann',
      action: 'alarm.acknowledge',
      field,
      oldValue,
      newValue,
      reason: null,
    });

  it('temperatures with one decimal and the unit, yes/no, words for fields and actions', () => {
    expect(entry('low_threshold', -5, 2).change).toBe('Low threshold: -5.0 °C → 2.0 °C');
    expect(entry('acknowledged', false, true).change).toBe('Acknowledged: No → Yes');
    expect(entry('num_consecutive_excursions', 1, 3).change).toBe(
      'Consecutive points for an excursion: 1 → 3',
    );
    expect(entry('alarm_recipients', [], ['a@example.com', 'b@example.com']).change).toBe(
      'Alarm recipients: (none) → a@example.com, b@example.com',
    );
    expect(entry('trip_status', 'IN_TRANSIT', 'ARRIVED').change).toBe(
      'Trip status: In transit → Arrived',
    );
    expect(entry('cumulative_duration_low', '1 02:30:00', null).change).toBe(
      'Cumulative duration low: 1d 2h 30m → —',
    );
    const e = entry('end_time', null, '2026-01-15T12:00:00Z');
    // Without a style (the audit API's CSV, which has a UTC column): the wall clock alone.
    expect(e.when).toBe('01/15/2026, 13:00:00');
    expect(e.change).toBe('Trip end: — → 01/15/2026, 13:00:00');
    expect(e.what).toBe('Alarm acknowledged');
    // In a report: with the offset, en-US or ISO 8601.
    const inReport = (style: 'text' | 'iso') =>
      auditDisplayer({ unit: 'C', timeZone: 'Europe/Berlin', style })({
        occurredAt: new Date('2026-10-25T01:30:00Z'),
        actorName: 'Ann',
        action: 'record.trip.update',
        field: 'end_time',
        oldValue: '2026-10-25T00:30:00Z',
        newValue: '2026-10-25T01:30:00Z',
        reason: null,
      });
    expect(inReport('text').when).toBe('10/25/2026, 02:30:00 UTC+01:00');
    expect(inReport('text').change).toBe(
      'Trip end: 10/25/2026, 02:30:00 UTC+02:00 → 10/25/2026, 02:30:00 UTC+01:00',
    );
    expect(inReport('iso').change).toBe(
      'Trip end: 2026-10-25T02:30:00+02:00 → 2026-10-25T02:30:00+01:00',
    );
  });

  it('intervals in days, hours and minutes, seconds only when not whole minutes', () => {
    expect(intervalText(60)).toBe('1m');
    expect(intervalText(900)).toBe('15m');
    expect(intervalText(3600)).toBe('1h');
    expect(intervalText(30)).toBe('30s');
    expect(intervalText(90)).toBe('1m 30s');
    expect(intervalText(null)).toBeNull();
  });

  it('the verdict sentences', () => {
    const alarm = (over: Partial<ReportAlarm>): ReportAlarm => ({ id: '1', ...over });
    expect(acknowledgementSentence([])).toBe('There is no alarm to acknowledge.');
    expect(acknowledgementSentence([alarm({ acknowledged: true })])).toBe(
      'The alarm is acknowledged.',
    );
    expect(acknowledgementSentence([alarm({})])).toBe('The alarm is not acknowledged.');
    expect(
      acknowledgementSentence([alarm({ acknowledged: true }), alarm({ acknowledged: false })]),
    ).toBe('1 of 2 alarms is not acknowledged.');
    expect(acknowledgementSentence([alarm({}), alarm({}), alarm({ acknowledged: true })])).toBe(
      '2 of 3 alarms are not acknowledged.',
    );
    expect(alarmCountSentence([])).toBe('No alarms were raised.');
    expect(alarmCountSentence([alarm({ state: 'CLOSED' }), alarm({ state: 'OPEN' })])).toBe(
      '2 alarms: 1 open, 1 closed.',
    );
    expect(
      alarmCountSentence([
        alarm({ state: 'CLOSED', dismissed: true }),
        alarm({ state: 'OPEN' }),
        alarm({ state: 'OPEN' }),
      ]),
    ).toBe('3 alarms: 2 open, 1 closed; 1 dismissed.');
  });
});

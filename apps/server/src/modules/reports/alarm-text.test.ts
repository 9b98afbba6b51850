import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { alarmColumns, alarmDisplayer } from './alarm-text';
import { renderCsv } from './render-csv';
import { renderXlsx } from './render-xlsx';
import type { ReportAlarm, ReportData } from './report-model';

const START = Date.parse('2026-01-15T12:00:00Z') / 1000;
const at = (minutes: number) => new Date((START + minutes * 60) * 1000).toISOString();

/** A low alarm closed by the system (trip window), dismissed with a reason that looks like a formula. */
const CLOSED: ReportAlarm = {
  id: '31',
  kind: 'excursion',
  above_or_below: 'BELOW',
  state: 'CLOSED',
  first_point_idx: 1,
  last_point_idx: 2,
  start_time: at(1),
  end_time: at(2),
  duration: 120,
  degree_minutes: 3,
  lowest_recorded_temperature: -2.5,
  closed_at: at(60),
  closed_by: null,
  close_cause: 'TRIP_WINDOW',
  close_reason: 'The excursion is outside the trip window',
  dismissed: true,
  dismissed_by: 'olga',
  dismissed_at: at(90),
  dismiss_reason: '=HYPERLINK("http://evil")',
};

function report(alarms: ReportAlarm[]): ReportData {
  return {
    organizationName: 'Org',
    record: { id: '5', tag_serial_number: 'SN' } as ReportData['record'],
    alarms,
    audit: [],
    temps: [1, -2.5, -2, 1],
    timing: { startTimeSeconds: START, startDelay: 0, intervalSeconds: 60 },
    unit: 'F',
    timeZone: 'Europe/Berlin',
    generatedAt: new Date(at(120)),
    generatedBy: 'Tester',
  };
}

describe('an alarm as every report format prints it [RULE-REPORT-1, RULE-REPORT-2]', () => {
  it('a closed alarm: System when no person closed it, the cause in words, times in the zone, °F', () => {
    const d = alarmDisplayer({ unit: 'F', timeZone: 'Europe/Berlin' })(CLOSED);
    expect(d).toMatchObject({
      id: '31',
      kind: 'Excursion',
      direction: 'Low',
      state: 'Closed',
      start: '01/15/2026, 13:01:00 UTC+01:00',
      duration: '2m',
      // -2.5 °C is 27.5 °F; degree-minutes by the factor 1.8 alone.
      peak: 27.5,
      degreeMinutes: 5.4,
      closedBy: 'System',
      closedAt: '01/15/2026, 14:00:00 UTC+01:00',
      closeCause: 'Outside the trip window',
      closeReason: 'The excursion is outside the trip window',
      dismissedBy: 'olga',
      dismissedAt: '01/15/2026, 14:30:00 UTC+01:00',
      acknowledgedBy: '',
      signedBy: '',
      closeSignedBy: '',
    });
    // The CSV's times: ISO 8601 with the offset.
    const iso = alarmDisplayer({ unit: 'F', timeZone: 'Europe/Berlin', style: 'iso' })(CLOSED);
    expect(iso).toMatchObject({
      start: '2026-01-15T13:01:00+01:00',
      closedAt: '2026-01-15T14:00:00+01:00',
    });
    const open = alarmDisplayer({ unit: 'C', timeZone: 'UTC' })({ id: '1', state: 'OPEN' });
    expect(open).toMatchObject({ state: 'Open', closedBy: '', closeCause: '', dismissedBy: '' });
  });

  it('a no-data alarm is silence: since when, the interval expected, how long; no degree-minutes', () => {
    const silent: ReportAlarm = {
      id: '40',
      kind: 'no_data',
      above_or_below: 'BELOW',
      state: 'OPEN',
      start_time: at(10),
      duration: 300,
      degree_minutes: 0,
      expected_interval: 300,
    };
    const now = new Date(at(100));
    const open = alarmDisplayer({ unit: 'C', timeZone: 'Europe/Berlin', now })(silent);
    expect(open).toMatchObject({
      kind: 'No data',
      direction: '',
      silence: 'Silent since 01/15/2026, 13:10:00 UTC+01:00, expected every 5m',
      end: '',
      // Open: silent from minute 10 until the report was made (minute 100).
      duration: '1h 30m',
      degreeMinutes: null,
      peak: null,
      expectedEvery: '5m',
    });
    const resumed = alarmDisplayer({ unit: 'C', timeZone: 'Europe/Berlin', now })({
      ...silent,
      state: 'CLOSED',
      closed_at: at(40),
      close_cause: 'DATA_RESUMED',
      expected_interval: 30,
    });
    expect(resumed).toMatchObject({
      silence:
        'Silent from 01/15/2026, 13:10:00 UTC+01:00 to 01/15/2026, 13:40:00 UTC+01:00, expected every 30 s',
      end: '01/15/2026, 13:40:00 UTC+01:00',
      duration: '30m',
      degreeMinutes: null,
    });
    // Every other alarm has no silence text.
    expect(alarmDisplayer({ unit: 'C', timeZone: 'UTC' })(CLOSED).silence).toBe('');
  });

  it('CSV and XLSX: text that looks like a formula is neutralised, a negative peak stays a number', async () => {
    const csv = renderCsv(report([CLOSED]))
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    const lines: string[][] = parse(csv, { relax_column_count: true });
    const header = lines.findIndex((l) => l[0] === 'Alarm' && l[1] === 'Kind');
    expect(lines[header]).toEqual(alarmColumns('F', 'Europe/Berlin'));
    const row = Object.fromEntries(lines[header]!.map((h, i) => [h, lines[header + 1]![i]]));
    expect(row['Dismissal reason']).toBe('\'=HYPERLINK("http://evil")');
    expect(row['Peak (°F)']).toBe('27.5');
    expect(row['Closed by']).toBe('System');
    expect(row['Dismissed at (Europe/Berlin)']).toBe('2026-01-15T14:30:00+01:00');

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await renderXlsx(report([CLOSED]))) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Alarms')!;
    const titles = (sheet.getRow(1).values as unknown[]).slice(1);
    const cell = (title: string) => sheet.getRow(2).getCell(titles.indexOf(title) + 1);
    expect(cell('Dismissal reason').value).toBe('\'=HYPERLINK("http://evil")');
    expect(cell('Peak (°F)').value).toBe(27.5);
    expect(cell('Degree-minutes (°F·min)').value).toBe(5.4);
    expect(cell('State').value).toBe('Closed');
    expect(cell('Dismissed at (Europe/Berlin)').value).toBe('01/15/2026, 14:30:00 UTC+01:00');
  });

  it('no alarm: the sections say so', async () => {
    const csv = renderCsv(report([])).toString('utf8');
    expect(csv).toContain('Alarms\nAlarm,Kind,');
    expect(csv).toContain('No alarms: every point stayed within the thresholds.');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await renderXlsx(report([]))) as unknown as ArrayBuffer);
    expect(workbook.getWorksheet('Alarms')!.getRow(2).getCell(1).value).toBe(
      'No alarms: every point stayed within the thresholds.',
    );
    expect(workbook.getWorksheet('Audit trail')!.getRow(2).getCell(1).value).toBe(
      'No changes by a person are recorded for this record.',
    );
  });
});

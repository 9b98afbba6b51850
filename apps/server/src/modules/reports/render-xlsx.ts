import { PassThrough } from 'node:stream';
import { formatUtcOffset, resolveTimeZone, type ZonedTimeFormat } from '@coldtrace/domain';
import ExcelJS from 'exceljs';
import { alarmCells, alarmColumns, alarmDisplayer, NO_ALARMS } from './alarm-text';
import { auditDisplayer } from './audit-text';
import { budgetLines } from './budget-text';
import { dispositionLines } from './disposition-text';
import {
  evidenceLines,
  headerLines,
  neutralise,
  pointMs,
  summaryLines,
  unitConverter,
  zoneFormat,
  type ReportData,
  type SummaryValue,
} from './report-model';

const DATE_FORMAT = 'mm/dd/yyyy hh:mm:ss';
/** The readings' header: the UTC offset of each local time, and the instant in UTC. */
const OFFSET_COLUMN = 'UTC offset';
const UTC_COLUMN = 'Time (UTC)';
const TEMPERATURE_FORMAT = '0.0';
/** Column widths of the Alarms sheet (alarmColumns' order). */
const ALARM_WIDTHS = [
  10, 12, 10, 10, 22, 22, 12, 20, 12, 18, 22, 36, 22, 18, 22, 18, 22, 36, 22, 18, 30, 48, 22, 22,
  24, 14,
];
/** Degree-minutes and peak: number cells with one decimal (1-based columns). */
const ALARM_NUMBER_COLUMNS = [8, 9];

type Workbook = ExcelJS.stream.xlsx.WorkbookWriter;
type Sheet = ReturnType<Workbook['addWorksheet']>;

/** The first sheet's title, header and summary lines (a date with its offset in the next cell). */
function summaryRows(sheet: Sheet, data: ReportData, time: ZonedTimeFormat): void {
  const title = sheet.addRow(['Coldtrace temperature report']);
  title.font = { bold: true, size: 14 };
  title.commit();
  for (const line of [
    ...headerLines(data),
    ...summaryLines(data),
    ...evidenceLines(data.evidence),
    ...dispositionLines(data.record),
    ...budgetLines(data.record, data.unit),
  ]) {
    const value = line.value;
    const row = sheet.addRow(
      value instanceof Date
        ? [neutralise(line.label), ...localCells(time, value.getTime())]
        : [neutralise(line.label), cellValue(value)],
    );
    const cell = row.getCell(2);
    if (value instanceof Date) cell.numFmt = DATE_FORMAT;
    else if (
      typeof line.value === 'number' &&
      (line.decimals !== undefined || !Number.isInteger(line.value))
    ) {
      cell.numFmt = TEMPERATURE_FORMAT;
    }
    cell.alignment = { horizontal: 'left' };
    row.commit();
  }
}

/** The first sheet: the summary, then one row per point. */
function readingsSheet(
  workbook: Workbook,
  data: ReportData,
  zone: string,
  time: ZonedTimeFormat,
): void {
  const sheet = workbook.addWorksheet(`Record ${data.record.id ?? ''}`.trim(), {
    views: [{ state: 'frozen', ySplit: 0 }],
  });
  sheet.columns = [
    { key: 'a', width: 34 },
    { key: 'b', width: 30 },
    { key: 'c', width: 12 },
    { key: 'd', width: 20 },
    { key: 'e', width: 18 },
  ];

  summaryRows(sheet, data, time);
  sheet.addRow([]).commit();
  const heading = sheet.addRow([
    'Index',
    `Local time (${zone})`,
    OFFSET_COLUMN,
    UTC_COLUMN,
    `Temperature (°${data.unit})`,
  ]);
  heading.font = { bold: true };
  heading.commit();

  const convert = unitConverter(data.unit);
  const temps = data.temps;
  for (let i = 0; i < temps.length; i++) {
    const t = temps[i];
    if (t === null || t === undefined) continue;
    const ms = pointMs(data.timing, i);
    const row = sheet.addRow([
      i,
      ...(ms === null ? [null, null] : localCells(time, ms)),
      ms === null ? null : new Date(ms),
      convert(t),
    ]);
    row.getCell(2).numFmt = DATE_FORMAT;
    row.getCell(4).numFmt = DATE_FORMAT;
    row.getCell(5).numFmt = TEMPERATURE_FORMAT;
    row.commit();
  }

  sheet.commit();
}

function alarmsSheet(workbook: Workbook, data: ReportData, zone: string): void {
  // The alarms, one row per alarm, in the PDF's words (alarm-text.ts).
  const alarmSheet = workbook.addWorksheet('Alarms', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const columns = alarmColumns(data.unit, zone);
  alarmSheet.columns = columns.map((_, i) => ({ width: ALARM_WIDTHS[i] ?? 24 }));
  const alarmHeading = alarmSheet.addRow(columns);
  alarmHeading.font = { bold: true };
  alarmHeading.commit();
  const alarm = alarmDisplayer({
    unit: data.unit,
    timeZone: zone,
    style: 'text',
    now: data.generatedAt,
  });
  for (const a of data.alarms) {
    const row = alarmSheet.addRow(
      alarmCells(alarm(a)).map((cell) =>
        typeof cell === 'number' || cell === null ? cell : neutralise(cell),
      ),
    );
    for (const c of ALARM_NUMBER_COLUMNS) row.getCell(c).numFmt = TEMPERATURE_FORMAT;
    row.commit();
  }
  if (data.alarms.length === 0) alarmSheet.addRow([NO_ALARMS]).commit();
  alarmSheet.commit();
}

function auditSheet(workbook: Workbook, data: ReportData, zone: string): void {
  // The audit trail as every format prints it (audit-text.ts).
  const auditSheet = workbook.addWorksheet('Audit trail', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  auditSheet.columns = [{ width: 22 }, { width: 24 }, { width: 28 }, { width: 48 }, { width: 40 }];
  const auditHeading = auditSheet.addRow([
    `When (${zone})`,
    'Who',
    'What',
    'Change (old → new)',
    'Reason',
  ]);
  auditHeading.font = { bold: true };
  auditHeading.commit();
  const display = auditDisplayer({ unit: data.unit, timeZone: zone, style: 'text' });
  for (const entry of data.audit) {
    const d = display(entry);
    auditSheet.addRow([d.when, d.who, d.what, d.change, d.reason].map(neutralise)).commit();
  }
  if (data.audit.length === 0) {
    auditSheet.addRow(['No changes by a person are recorded for this record.']).commit();
  }
  auditSheet.commit();
}

/**
 * The XLSX report (domain rules section 8), written with exceljs's streaming
 * WorkbookWriter (rows are committed as they are written). The first sheet
 * has the same header and summary as the CSV, then one row per point; the
 * sheet "Alarms" one row per alarm (alarm-text.ts) and "Audit trail" the
 * audit trail, both in the PDF's words (times with their offset). Spreadsheet
 * dates have no zone, so a reading's time is three cells: its local time (a real
 * date holding the wall clock of the user's zone, named in the heading), the
 * UTC offset of that time (`UTC+01:00`, which tells the two 02:30 of an
 * autumn night apart) and the instant in UTC (a real date: unique, sortable,
 * what to compute with). A summary date carries its offset in the next cell.
 * Numbers are real numbers; text cells are neutralised.
 */
export async function renderXlsx(data: ReportData): Promise<Buffer> {
  const zone = resolveTimeZone(data.timeZone);
  const time = zoneFormat(zone);
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    sink.on('end', resolve);
    sink.on('error', reject);
  });

  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Coldtrace';
  workbook.created = data.generatedAt;
  readingsSheet(workbook, data, zone, time);
  alarmsSheet(workbook, data, zone);
  auditSheet(workbook, data, zone);
  await workbook.commit();
  await finished;
  return Buffer.concat(chunks);
}

/** A local time as two cells: the wall clock as a date, and its offset (`UTC+02:00`). */
function localCells(time: ZonedTimeFormat, ms: number): [Date, string] {
  return [new Date(time.wallMs(ms)), `UTC${formatUtcOffset(time.offsetSeconds(ms))}`];
}

function cellValue(value: Exclude<SummaryValue, Date>): ExcelJS.CellValue {
  if (value === null) return null;
  if (typeof value === 'number') return value;
  return neutralise(value);
}

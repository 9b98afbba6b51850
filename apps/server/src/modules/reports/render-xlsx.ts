import { PassThrough } from 'node:stream';
import { resolveTimeZone } from '@coldtrace/domain';
import ExcelJS from 'exceljs';
import { alarmCells, alarmColumns, alarmDisplayer, NO_ALARMS } from './alarm-text';
import { auditDisplayer } from './audit-text';
import { budgetLines } from './budget-text';
import { dispositionLines } from './disposition-text';
import {
  headerLines,
  neutralise,
  pointMs,
  summaryLines,
  unitConverter,
  wallClock,
  type ReportData,
  type SummaryValue,
} from './report-model';

const DATE_FORMAT = 'mm/dd/yyyy hh:mm:ss';
const TEMPERATURE_FORMAT = '0.0';
/** Column widths of the Alarms sheet (alarmColumns' order). */
const ALARM_WIDTHS = [
  10, 12, 10, 10, 22, 22, 12, 20, 12, 18, 22, 36, 22, 18, 22, 18, 22, 36, 22, 18, 30, 48, 22, 22,
  24,
];
/** Degree-minutes and peak: number cells with one decimal (1-based columns). */
const ALARM_NUMBER_COLUMNS = [8, 9];

/**
 * The XLSX report (domain rules section 8), written with exceljs's streaming
 * WorkbookWriter (rows are committed as they are written). The first sheet
 * has the same header and summary as the CSV, then one row per point; the
 * sheet "Alarms" one row per alarm (alarm-text.ts) and "Audit trail" the
 * audit trail, both in the PDF's words. Dates of points are real date cells
 * holding the wall-clock time of the user's zone (spreadsheets have no time
 * zones; the zone is named in the column heading), numbers real numbers;
 * text cells are neutralised.
 */
export async function renderXlsx(data: ReportData): Promise<Buffer> {
  const zone = resolveTimeZone(data.timeZone);
  const wall = wallClock(zone);
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
  const sheet = workbook.addWorksheet(`Record ${data.record.id ?? ''}`.trim(), {
    views: [{ state: 'frozen', ySplit: 0 }],
  });
  sheet.columns = [
    { key: 'a', width: 34 },
    { key: 'b', width: 30 },
    { key: 'c', width: 18 },
  ];

  const title = sheet.addRow(['Coldtrace temperature report']);
  title.font = { bold: true, size: 14 };
  title.commit();
  for (const line of [
    ...headerLines(data),
    ...summaryLines(data),
    ...dispositionLines(data.record),
    ...budgetLines(data.record, data.unit),
  ]) {
    const row = sheet.addRow([neutralise(line.label), cellValue(line.value, wall)]);
    const cell = row.getCell(2);
    if (line.value instanceof Date) cell.numFmt = DATE_FORMAT;
    else if (
      typeof line.value === 'number' &&
      (line.decimals !== undefined || !Number.isInteger(line.value))
    ) {
      cell.numFmt = TEMPERATURE_FORMAT;
    }
    cell.alignment = { horizontal: 'left' };
    row.commit();
  }
  sheet.addRow([]).commit();
  const heading = sheet.addRow(['Index', `Local time (${zone})`, `Temperature (°${data.unit})`]);
  heading.font = { bold: true };
  heading.commit();

  const convert = unitConverter(data.unit);
  const temps = data.temps;
  for (let i = 0; i < temps.length; i++) {
    const t = temps[i];
    if (t === null || t === undefined) continue;
    const ms = pointMs(data.timing, i);
    const row = sheet.addRow([i, ms === null ? null : new Date(wall(ms)), convert(t)]);
    row.getCell(2).numFmt = DATE_FORMAT;
    row.getCell(3).numFmt = TEMPERATURE_FORMAT;
    row.commit();
  }
  sheet.commit();

  // The alarms, one row per alarm, in the PDF's words (alarm-text.ts).
  const alarmSheet = workbook.addWorksheet('Alarms', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const columns = alarmColumns(data.unit, zone);
  alarmSheet.columns = columns.map((_, i) => ({ width: ALARM_WIDTHS[i] ?? 24 }));
  const alarmHeading = alarmSheet.addRow(columns);
  alarmHeading.font = { bold: true };
  alarmHeading.commit();
  const alarm = alarmDisplayer({ unit: data.unit, timeZone: zone });
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
  const display = auditDisplayer({ unit: data.unit, timeZone: zone });
  for (const entry of data.audit) {
    const d = display(entry);
    auditSheet.addRow([d.when, d.who, d.what, d.change, d.reason].map(neutralise)).commit();
  }
  if (data.audit.length === 0) {
    auditSheet.addRow(['No changes by a person are recorded for this record.']).commit();
  }
  auditSheet.commit();
  await workbook.commit();
  await finished;
  return Buffer.concat(chunks);
}

function cellValue(value: SummaryValue, wall: (ms: number) => number): ExcelJS.CellValue {
  if (value === null) return null;
  if (value instanceof Date) return new Date(wall(value.getTime()));
  if (typeof value === 'number') return value;
  return neutralise(value);
}

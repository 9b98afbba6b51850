import { PassThrough } from 'node:stream';
import { resolveTimeZone } from '@coldtrace/domain';
import ExcelJS from 'exceljs';
import { auditDisplayer } from './audit-text';
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

/**
 * The XLSX report (domain rules section 8), written with exceljs's streaming
 * WorkbookWriter (rows are committed as they are written): the same header
 * and summary as the CSV, the audit trail as every format prints it
 * (audit-text.ts), then one row per point. Dates are real date cells
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
    { key: 'd', width: 48 },
    { key: 'e', width: 30 },
  ];

  const title = sheet.addRow(['Coldtrace temperature report']);
  title.font = { bold: true, size: 14 };
  title.commit();
  for (const line of [...headerLines(data), ...summaryLines(data)]) {
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
  const auditTitle = sheet.addRow(['Audit trail']);
  auditTitle.font = { bold: true };
  auditTitle.commit();
  const auditHeading = sheet.addRow([
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
    sheet.addRow([d.when, d.who, d.what, d.change, d.reason].map(neutralise)).commit();
  }
  if (data.audit.length === 0) {
    sheet.addRow(['No changes by a person are recorded for this record.']).commit();
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

import { stringify } from 'csv-stringify/sync';
import { resolveTimeZone } from '@coldtrace/domain';
import { alarmCells, alarmColumns, alarmDisplayer, NO_ALARMS } from './alarm-text';
import { auditDisplayer } from './audit-text';
import { budgetLines } from './budget-text';
import { dispositionLines } from './disposition-text';
import {
  evidenceLines,
  headerLines,
  instantWriter,
  neutralise,
  pointMs,
  summaryLines,
  summaryText,
  unitConverter,
  utcText,
  type ReportData,
} from './report-model';

/** Rows stringified at a time (bounded memory per step, few library calls). */
const BATCH = 4096;

type Cell = string | number;

function stringifyRows(rows: Cell[][]): Buffer {
  return Buffer.from(stringify(rows, { cast: { number: (n) => String(n) } }), 'utf8');
}

/**
 * The CSV report (domain rules section 8), sections one after the other, each
 * under a title line and followed by a blank line: the header and summary as
 * label,value lines (temperatures with the display rule's decimals); `Alarms`,
 * one row per alarm (alarm-text.ts: state, acknowledgement, signatures,
 * dismissal, closing, in the PDF's words); `Audit trail` as the PDF prints it
 * (audit-text.ts); then, last, the readings' header and one row per point: index, local time
 * in the user's zone as ISO 8601 with its offset (`2026-10-25T02:30:00+02:00`,
 * so the hour repeated in autumn reads apart), the same instant in UTC as
 * `2026-10-25 00:30:00` (a date-time spreadsheets read as one, unique and in
 * order), temperature in the user's unit (one decimal). Every other time (summary,
 * alarms, audit trail) is ISO 8601 with its offset too. Text cells are
 * neutralised; numbers stay numbers. A UTF-8 BOM lets spreadsheets read `°`
 * correctly. Gaps in the series have no row.
 */
export function renderCsv(data: ReportData): Buffer {
  const zone = resolveTimeZone(data.timeZone);
  const out: Buffer[] = [Buffer.from('\uFEFF', 'utf8')];
  const head: Cell[][] = [['Coldtrace temperature report']];
  for (const line of [
    ...headerLines(data),
    ...summaryLines(data),
    ...evidenceLines(data.evidence),
    ...dispositionLines(data.record),
    ...budgetLines(data.record, data.unit),
  ]) {
    const value = line.value;
    head.push([
      neutralise(line.label),
      typeof value === 'number'
        ? line.decimals === undefined
          ? value
          : value.toFixed(line.decimals)
        : neutralise(summaryText(value, zone, undefined, 'iso')),
    ]);
  }
  head.push([]);
  head.push(['Alarms']);
  head.push(alarmColumns(data.unit, zone));
  const alarm = alarmDisplayer({
    unit: data.unit,
    timeZone: zone,
    style: 'iso',
    now: data.generatedAt,
  });
  for (const a of data.alarms) {
    head.push(
      alarmCells(alarm(a)).map((cell) =>
        typeof cell === 'number' ? cell.toFixed(1) : neutralise(cell ?? ''),
      ),
    );
  }
  if (data.alarms.length === 0) head.push([NO_ALARMS]);
  head.push([]);
  head.push(['Audit trail']);
  head.push([`When (${zone})`, 'Who', 'What', 'Change (old → new)', 'Reason']);
  const display = auditDisplayer({ unit: data.unit, timeZone: zone, style: 'iso' });
  for (const entry of data.audit) {
    const d = display(entry);
    head.push([d.when, d.who, d.what, d.change, d.reason].map(neutralise));
  }
  if (data.audit.length === 0) head.push(['No changes by a person are recorded for this record.']);
  head.push([]);
  head.push(['Index', `Local time (${zone})`, 'Time (UTC)', `Temperature (°${data.unit})`]);
  out.push(stringifyRows(head));

  const convert = unitConverter(data.unit);
  const local = instantWriter(zone, 'iso');
  let batch: Cell[][] = [];
  const temps = data.temps;
  for (let i = 0; i < temps.length; i++) {
    const t = temps[i];
    if (t === null || t === undefined) continue;
    const ms = pointMs(data.timing, i);
    batch.push([
      i,
      ms === null ? '' : local(ms),
      ms === null ? '' : utcText(ms),
      convert(t).toFixed(1),
    ]);
    if (batch.length === BATCH) {
      out.push(stringifyRows(batch));
      batch = [];
    }
  }
  if (batch.length > 0) out.push(stringifyRows(batch));
  return Buffer.concat(out);
}

import { execFileSync } from 'node:child_process';
import {
  ZExcursionAlarm,
  ZFileReference,
  ZTripTemperatures,
  type TDegreesUnit,
} from '@coldtrace/contract';
import { parseZonedDateTime } from '@coldtrace/domain';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp, type TestClient } from '../../../test/helpers';
import { epoch, iso, serial, xt1Body } from '../../../test/shipment-factories';
import { pdfWords, printedDateTimes, tickInstants, type Word } from './report-times.fixtures';

/**
 * Issue 35 item 2, "Times that cannot be misread": a record every 30 minutes
 * from 2026-03-07 to 2026-11-02, across both 2026 changes of summer time in
 * Europe/Berlin (03-29, 10-25) and America/New_York (03-08, 11-01), with a
 * one-point excursion in each changing hour; and four records of five hours,
 * one around each change, for the chart. Read back from the CSV, the XLSX and
 * the PDF of users in Berlin and New York, in °C and °F, every printed time
 * is unique, in order and the stored instant.
 */

const XT1 = '/api/devices/xt1';
const HALF_HOUR = 1800;
const YEAR_START = epoch(new Date('2026-03-07T00:00:00Z'));
const YEAR_POINTS = (epoch(new Date('2026-11-02T12:00:00Z')) - YEAR_START) / HALF_HOUR + 1;
/** One point above the high threshold (8 °C) in each changing hour: eight alarms. */
const EXCURSIONS = [
  '2026-03-08T06:30:00Z', // New York 01:30 EST
  '2026-03-08T07:30:00Z', // New York 03:30 EDT
  '2026-03-29T00:30:00Z', // Berlin 01:30 CET
  '2026-03-29T01:30:00Z', // Berlin 03:30 CEST
  '2026-10-25T00:30:00Z', // Berlin 02:30 CEST
  '2026-10-25T01:30:00Z', // Berlin 02:30 CET
  '2026-11-01T05:30:00Z', // New York 01:30 EDT
  '2026-11-01T06:30:00Z', // New York 01:30 EST
].map((at) => (epoch(new Date(at)) - YEAR_START) / HALF_HOUR);
/** 4.0 to 7.0 °C in tenths (so °F values differ point to point), 9.5 °C at the excursions. */
const YEAR_TEMPS = Array.from({ length: YEAR_POINTS }, (_, i) =>
  EXCURSIONS.includes(i) ? 9.5 : 4 + ((i * 7) % 31) / 10,
);

/** Five hours at 10 minutes around each change, 2 minutes past the hour (so ticks are not points). */
const CHART_RECORDS = {
  berlinAutumn: { start: '2026-10-24T22:02:00Z', zone: 'Europe/Berlin', repeated: '02' },
  berlinSpring: { start: '2026-03-28T22:02:00Z', zone: 'Europe/Berlin', skipped: '02' },
  newYorkAutumn: { start: '2026-11-01T03:02:00Z', zone: 'America/New_York', repeated: '01' },
  newYorkSpring: { start: '2026-03-08T04:02:00Z', zone: 'America/New_York', skipped: '02' },
} as const;
const CHART_INTERVAL = 600;
const CHART_POINTS = 31;

const READERS = [
  { zone: 'Europe/Berlin', unit: 'C' },
  { zone: 'Europe/Berlin', unit: 'F' },
  { zone: 'America/New_York', unit: 'C' },
  { zone: 'America/New_York', unit: 'F' },
] as const satisfies readonly { zone: string; unit: TDegreesUnit }[];

/** The chart box (render-pdf.ts): x 76 to 551.28 on the page. */
const CHART_LEFT = 76;
const CHART_WIDTH = 475.28;

/** A temperature as the reports print it: °C, or °F by 1.8 and 32, one decimal (no ties here). */
const shown = (celsius: number, unit: TDegreesUnit) =>
  (unit === 'C' ? celsius : Math.round((celsius * 1.8 + 32) * 100) / 100).toFixed(1);

const strictlyIncreasing = (values: readonly number[]) =>
  values.every((v, i) => i === 0 || v > values[i - 1]!);

describe('report times across the 2026 changes of summer time [RULE-REPORT-3]', () => {
  let t: TestApp;
  let readers: { zone: string; unit: TDegreesUnit; client: TestClient }[];
  let yearId: string;
  /** The stored instant (epoch ms) of each point, from the API. */
  let stored: Map<number, number>;
  let alarmStarts: number[];
  const chartIds: Record<string, string> = {};

  async function upload(
    client: TestClient,
    startIso: string,
    interval: number,
    temps: number[],
  ): Promise<string> {
    const sn = serial('DST');
    const start = epoch(new Date(startIso));
    const common = { start_time_seconds: start, measurement_interval: interval };
    const started = await client.post(
      `${XT1}/start-action/`,
      xt1Body(sn, { ...common, timestamp: iso(start), num_consecutive_excursions: 1 }),
    );
    expect(started.statusCode, started.body).toBe(200);
    const recordId: string = started.json().record_id;
    const end = start + temps.length * interval;
    const scanned = await client.post(
      `${XT1}/scans/`,
      xt1Body(sn, { ...common, timestamp: iso(end), temps }),
    );
    expect(scanned.statusCode, scanned.body).toBe(200);
    return recordId;
  }

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.signIn({ role: 'Administrator' });
    const org = admin.orgs[0]!;
    yearId = await upload(admin.client, iso(YEAR_START), HALF_HOUR, YEAR_TEMPS);
    for (const [name, r] of Object.entries(CHART_RECORDS)) {
      const temps = Array.from({ length: CHART_POINTS }, (_, i) => 5 + (i % 5) / 10);
      chartIds[name] = await upload(admin.client, r.start, CHART_INTERVAL, temps);
    }
    readers = [];
    for (const r of READERS) {
      const { client } = await t.signIn({ role: 'Viewer', orgs: [org] });
      const res = await client.patch('/api/auth/user-settings/', {
        degrees_unit: r.unit,
        timezone: r.zone,
      });
      expect(res.statusCode, res.body).toBe(200);
      readers.push({ ...r, client });
    }

    const series = await admin.client.get(
      `/api/devices/aggregate/record-temperatures/?record_ids=${yearId}`,
    );
    expect(series.statusCode, series.body).toBe(200);
    const [trip] = z.array(ZTripTemperatures).parse(series.json());
    stored = new Map(trip!.temperatures!.map((p) => [p.index!, Date.parse(p.timestamp!)]));
    expect(stored.size).toBe(YEAR_POINTS);
    const alarms = await admin.client.get(
      `${XT1}/alarms/?record_id=${yearId}&include_acknowledged=true&include_dismissed=true`,
    );
    expect(alarms.statusCode, alarms.body).toBe(200);
    alarmStarts = z
      .array(ZExcursionAlarm)
      .parse(alarms.json())
      .map((a) => Date.parse(a.start_time!))
      .sort((a, b) => a - b);
    expect(alarmStarts).toEqual(EXCURSIONS.map((i) => (YEAR_START + i * HALF_HOUR) * 1000));
  });
  afterAll(() => t.close());

  async function download(client: TestClient, kind: string, recordId: string): Promise<Buffer> {
    const made = await client.post(`${XT1}/reports/${kind}/`, { record_id: recordId });
    expect(made.statusCode, made.body).toBe(200);
    const res = await client.get(ZFileReference.parse(made.json()).localUrl!);
    expect(res.statusCode, res.body).toBe(200);
    return res.rawPayload;
  }

  /** The points' instants must be the stored ones, unique and in order. */
  function expectStoredInstants(indices: number[], instants: number[]) {
    expect(indices).toEqual([...stored.keys()]);
    expect(instants).toEqual(indices.map((i) => stored.get(i)));
    expect(strictlyIncreasing(instants)).toBe(true);
  }

  it.each(READERS)(
    'CSV, $zone, °$unit: every point time unique, in order, the stored instant',
    async (reader) => {
      const { client } = readers.find((r) => r.zone === reader.zone && r.unit === reader.unit)!;
      const text = (await download(client, 'csv', yearId)).toString('utf8').replace(/^\uFEFF/, '');
      const lines: string[][] = parse(text, { relax_column_count: true, skip_empty_lines: false });
      const header = lines.findIndex((l) => l[0] === 'Index');
      expect(lines[header]).toEqual([
        'Index',
        `Local time (${reader.zone})`,
        'Time (UTC)',
        `Temperature (°${reader.unit})`,
      ]);
      const rows = lines.slice(header + 1);
      const local = rows.map((r) => r[1]!);
      // Printed times unique as text: the repeated hour reads apart.
      expect(new Set(local).size).toBe(rows.length);
      const fromLocal = local.map((l) => parseZonedDateTime(l)?.getTime() ?? NaN);
      const fromUtc = rows.map((r) => Date.parse(`${r[2]!.replace(' ', 'T')}Z`));
      expectStoredInstants(
        rows.map((r) => Number(r[0])),
        fromLocal,
      );
      expect(fromUtc).toEqual(fromLocal);
      expect(rows.map((r) => r[3])).toEqual(
        rows.map((r) => shown(YEAR_TEMPS[Number(r[0])]!, reader.unit)),
      );
      // The wall clock repeats in the autumn night: the same clock twice, told apart by the offset.
      const clocks = local.map((l) => l.slice(0, 19));
      expect(new Set(clocks).size).toBe(rows.length - 2);

      // Every other time of the CSV: ISO 8601 with its offset, none en-US or bare.
      const cells = lines.slice(0, header).flat();
      expect(cells.filter((c) => /\d{2}\/\d{2}\/\d{4}/.test(c))).toEqual([]);
      const times = cells.filter((c) => /^\d{4}-\d{2}-\d{2}T/.test(c));
      expect(times.length).toBeGreaterThan(2 * EXCURSIONS.length);
      for (const c of times) expect(parseZonedDateTime(c), c).not.toBeNull();
      // The alarms' starts: the stored ones, in order.
      const alarmsAt = lines.findIndex((l) => l.length === 1 && l[0] === 'Alarms');
      const startColumn = lines[alarmsAt + 1]!.indexOf(`Start (${reader.zone})`);
      const starts = lines
        .slice(alarmsAt + 2, alarmsAt + 2 + EXCURSIONS.length)
        .map((l) => parseZonedDateTime(l[startColumn]!)!.getTime());
      expect(starts).toEqual(alarmStarts);
    },
  );

  it.each(READERS)(
    'XLSX, $zone, °$unit: local time, offset and UTC instant; every row unique and sortable',
    async (reader) => {
      const { client } = readers.find((r) => r.zone === reader.zone && r.unit === reader.unit)!;
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await download(client, 'xlsx', yearId)) as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0]!;
      let header = 0;
      const summary = new Map<string, ExcelJS.Row>();
      sheet.eachRow((row, n) => {
        const label = row.getCell(1).value;
        if (label === 'Index') header = n;
        else if (typeof label === 'string' && header === 0) summary.set(label, row);
      });
      expect((sheet.getRow(header).values as unknown[]).slice(1)).toEqual([
        'Index',
        `Local time (${reader.zone})`,
        'UTC offset',
        'Time (UTC)',
        `Temperature (°${reader.unit})`,
      ]);
      /** A wall-clock date cell and its offset cell, back to the instant. */
      const instantOf = (wall: ExcelJS.CellValue, offset: ExcelJS.CellValue) => {
        expect(wall).toBeInstanceOf(Date);
        const m = /^UTC([+-])(\d{2}):(\d{2})$/.exec(String(offset))!;
        const sign = m[1] === '-' ? -1 : 1;
        return (wall as Date).getTime() - sign * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
      };
      const indices: number[] = [];
      const local: number[] = [];
      const utc: number[] = [];
      const pairs = new Set<string>();
      const walls = new Set<number>();
      for (let n = header + 1; n <= sheet.rowCount; n++) {
        const row = sheet.getRow(n);
        indices.push(row.getCell(1).value as number);
        local.push(instantOf(row.getCell(2).value, row.getCell(3).value));
        utc.push((row.getCell(4).value as Date).getTime());
        pairs.add(`${(row.getCell(2).value as Date).getTime()} ${String(row.getCell(3).value)}`);
        walls.add((row.getCell(2).value as Date).getTime());
        const temperature = row.getCell(5);
        expect(temperature.type).toBe(ExcelJS.ValueType.Number);
        expect((temperature.value as number).toFixed(1)).toBe(
          shown(YEAR_TEMPS[indices[indices.length - 1]!]!, reader.unit),
        );
        if (n === header + 1) {
          expect(row.getCell(2).numFmt).toBe('mm/dd/yyyy hh:mm:ss');
          expect(row.getCell(4).numFmt).toBe('mm/dd/yyyy hh:mm:ss');
          expect(temperature.numFmt).toBe('0.0');
        }
      }
      expectStoredInstants(indices, utc);
      expect(local).toEqual(utc);
      // Local time and offset: unique together; the wall clock alone repeats twice in autumn.
      expect(pairs.size).toBe(indices.length);
      expect(walls.size).toBe(indices.length - 2);
      // The summary's times: a date cell with its offset beside it.
      for (const [label, at] of [
        ['First point', stored.get(0)],
        ['Last point', stored.get(YEAR_POINTS - 1)],
      ] as const) {
        const row = summary.get(label)!;
        expect(instantOf(row.getCell(2).value, row.getCell(3).value), label).toBe(at);
      }
      // The alarms' starts: text with the offset, the stored ones.
      const alarms = workbook.getWorksheet('Alarms')!;
      const titles = (alarms.getRow(1).values as unknown[]).slice(1);
      const column = titles.indexOf(`Start (${reader.zone})`) + 1;
      const starts: number[] = [];
      alarms.eachRow((row, n) => {
        if (n > 1) starts.push(parseZonedDateTime(String(row.getCell(column).value))!.getTime());
      });
      expect(starts).toEqual(alarmStarts);
    },
  );

  it.each(READERS)(
    'PDF, $zone, °$unit: every time with its offset; the alarms apart; the axis in order',
    async (reader) => {
      const { client } = readers.find((r) => r.zone === reader.zone && r.unit === reader.unit)!;
      const pdf = await download(client, 'pdf', yearId);
      const text = execFileSync('pdftotext', ['-', '-'], { input: pdf })
        .toString('utf8')
        .replace(/\s+/g, ' ');
      const printed = printedDateTimes(text);
      expect(printed.length).toBeGreaterThan(2 * EXCURSIONS.length);
      expect(printed.filter((p) => !p.zoned)).toEqual([]);
      // Without the page footers (`Coldtrace · … · Generated <time> (<zone>)`), which fall between the rows.
      const body = text.replace(/Coldtrace · [^·]+ · Record \d+ · Generated [^(]+\([^)]+\)/g, '');
      expect(text.length - body.length).toBeGreaterThan(0);
      const instants = printedDateTimes(body).map((p) => parseZonedDateTime(p.time)!.getTime());
      // The summary's first and last point, then each alarm's start and end: in order, the stored instants.
      expect(body).toContain(`First point ${printedDateTimes(body)[1]!.time}`);
      expect(instants.slice(1, 3)).toEqual([stored.get(0), stored.get(YEAR_POINTS - 1)]);
      const alarmTable = printedDateTimes(
        body.slice(body.indexOf('Alarm and state'), body.indexOf('Audit trail')),
      );
      const alarmTimes = alarmTable.map((p) => parseZonedDateTime(p.time)!.getTime());
      expect(alarmTimes.filter((_, i) => i % 2 === 0)).toEqual(alarmStarts);
      expect(new Set(alarmTable.filter((_, i) => i % 2 === 0).map((p) => p.time)).size).toBe(
        EXCURSIONS.length,
      );
      expect(alarmTimes.every((v, i) => i === 0 || v >= alarmTimes[i - 1]!)).toBe(true);
      expectAxisInOrder(pdf, stored.get(0)!, stored.get(YEAR_POINTS - 1)!);
    },
  );

  it.each(READERS)(
    'PDF chart, $zone, °$unit: the axis around each change runs forward, placed by instant',
    async (reader) => {
      const { client } = readers.find((r) => r.zone === reader.zone && r.unit === reader.unit)!;
      for (const [name, record] of Object.entries(CHART_RECORDS)) {
        const pdf = await download(client, 'pdf', chartIds[name]!);
        const start = Date.parse(record.start);
        const labels = expectAxisInOrder(
          pdf,
          start,
          start + (CHART_POINTS - 1) * CHART_INTERVAL * 1000,
        );
        if (record.zone !== reader.zone) continue;
        const clocks = labels.flat().filter((w) => /^\d{2}:\d{2}$/.test(w));
        const offsets = labels.flat().filter((w) => w.startsWith('UTC'));
        // The offset changes on the axis, and says so.
        expect(new Set(offsets).size, name).toBe(2);
        if ('repeated' in record) {
          // The hour that repeats: its clock twice, the second with the new offset.
          expect(
            clocks.filter((c) => c === `${record.repeated}:00`),
            name,
          ).toHaveLength(2);
        } else {
          // The hour that is skipped: no tick in it.
          expect(
            clocks.filter((c) => c.startsWith(`${record.skipped}:`)),
            name,
          ).toEqual([]);
        }
      }
    },
  );
});

/**
 * The chart's time labels (the words between the chart box and its caption),
 * read along the axis back to instants: strictly increasing, each label
 * centred where its instant falls between the first and last point. Answers
 * each label's words.
 */
function expectAxisInOrder(pdf: Buffer, firstMs: number, lastMs: number): string[][] {
  const words = pdfWords(pdf);
  const caption = words.findIndex(
    (w, i) => w.text === 'drawn' && words[i + 1]?.text === 'as' && words[i + 2]?.text === 'the',
  );
  expect(caption).toBeGreaterThan(0);
  const { page, y: captionY } = words[caption]!;
  const below = words.filter(
    (w) => w.page === page && w.y > captionY - 28 && w.y < captionY - 2 && w.xMin > 40,
  );
  const top = Math.min(...below.map((w) => w.y));
  // The labels' first lines: runs of words a space apart; a second line joins the nearest.
  const runs: Word[][] = [];
  for (const w of below.filter((v) => v.y < top + 1).sort((a, b) => a.xMin - b.xMin)) {
    const run = runs[runs.length - 1];
    if (run && w.xMin - run[run.length - 1]!.xMax < 5) run.push(w);
    else runs.push([w]);
  }
  const centre = (run: Word[]) => (run[0]!.xMin + run[run.length - 1]!.xMax) / 2;
  const labels = runs.map((run) => ({ x: centre(run), words: run.map((w) => w.text) }));
  for (const w of below.filter((v) => v.y >= top + 1)) {
    const mid = (w.xMin + w.xMax) / 2;
    const nearest = labels.reduce((a, b) => (Math.abs(b.x - mid) < Math.abs(a.x - mid) ? b : a));
    nearest.words.push(w.text);
  }
  expect(labels.length).toBeGreaterThanOrEqual(2);
  const instants = tickInstants(labels.map((l) => l.words));
  expect(strictlyIncreasing(instants), labels.map((l) => l.words.join(' ')).join(' | ')).toBe(true);
  for (const [i, label] of labels.entries()) {
    const x = CHART_LEFT + ((instants[i]! - firstMs) / (lastMs - firstMs)) * CHART_WIDTH;
    // Within 2.5 points: pdfkit centres a line of two words about 2 points left; ticks are 70 apart.
    expect(Math.abs(label.x - x), label.words.join(' ')).toBeLessThan(2.5);
  }
  return labels.map((l) => l.words);
}

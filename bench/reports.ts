/**
 * Reports of a 100,000-point record (issue 6): time and memory of the PDF,
 * CSV and XLSX renderers on the same data, against a baseline measured in the
 * same run (the point rows joined as plain text, no library). Aims: PDF under
 * 1 s, XLSX at least 40,000 rows/s, CSV at least 300,000 rows/s.
 *
 * The renderers are pure (apps/server/src/modules/reports/render-*.ts); the
 * job around them adds one read of the series (bench/ingest measures that).
 */
import type { TRecord } from '@coldtrace/contract';
import { renderCsv } from '../apps/server/src/modules/reports/render-csv';
import { renderPdf } from '../apps/server/src/modules/reports/render-pdf';
import { renderXlsx } from '../apps/server/src/modules/reports/render-xlsx';
import {
  formatWall,
  pointMs,
  unitConverter,
  wallClock,
  type ReportData,
} from '../apps/server/src/modules/reports/report-model';
import { fmt } from './measure';

const POINTS = 100_000;
const START = Date.UTC(2026, 10, 1, 6, 0, 0) / 1000;

/** A 100,000-point record at 60 s with a daily cycle, noise and one excursion above 8 °C. */
export function sampleReportData(points = POINTS, unit: 'C' | 'F' = 'C'): ReportData {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const temps: number[] = [];
  for (let i = 0; i < points; i++) {
    const daily = 1.5 * Math.sin((2 * Math.PI * i) / 1440);
    const excursion = i > points * 0.42 && i < points * 0.42 + 180 ? 5 : 0;
    temps.push(Math.round((5 + daily + (random() - 0.5) * 0.6 + excursion) * 10) / 10);
  }
  const record: TRecord = {
    id: '4711',
    tag_id: '12',
    tag_serial_number: 'XT1-000123',
    tag_type: 'XT1_NFC_MU',
    primary_reference: 'PO-2026-11-001',
    secondary_reference: '=HYPERLINK("x")',
    shipping_reference: 'AWB 176-12345675',
    program_name: 'Vaccines EU',
    carrier: 'ColdAir Logistics',
    product_designation: 'Insulin 2-8 °C',
    po_number: '4500012345',
    shipper_name_address: { id: '1', name: 'Pharma Plant Basel' },
    receiver_name_address: { id: '2', name: 'Central Pharmacy Lyon' },
    high_threshold: 8,
    low_threshold: 2,
    num_consecutive_excursions: 1,
    highest_recorded_temperature: Math.max(...temps),
    lowest_recorded_temperature: Math.min(...temps),
    mean_kinetic_temp: 5.21,
    first_point: new Date(START * 1000).toISOString(),
    last_point: new Date((START + (points - 1) * 60) * 1000).toISOString(),
    number_of_points: points,
    record_duration: (points - 1) * 60,
    measurement_interval: 60,
    status: 'Alarm',
    trip: {
      begin_time: new Date((START + 600) * 1000).toISOString(),
      end_time: null,
      trip_status: 'IN_TRANSIT',
    },
  };
  const first = Math.floor(points * 0.42) + 1;
  return {
    organizationName: 'Acme Pharma Logistics',
    record,
    alarms: [
      {
        id: '91',
        kind: 'excursion',
        above_or_below: 'ABOVE',
        first_point_idx: first,
        last_point_idx: first + 178,
        start_time: new Date((START + first * 60) * 1000).toISOString(),
        end_time: new Date((START + (first + 178) * 60) * 1000).toISOString(),
        duration: 179 * 60,
        degree_minutes: 412.5,
        highest_recorded_temperature: 11.9,
        acknowledged: true,
        acknowledged_by: 'qa.lead',
        acknowledged_at: new Date((START + (first + 300) * 60) * 1000).toISOString(),
        acknowledge_comment: 'Product quarantined; stability data reviewed, released.',
      },
    ],
    audit: [
      {
        occurredAt: new Date((START + 7200) * 1000),
        actorName: 'Dana Quality',
        action: 'record.shipment.update',
        field: 'carrier',
        oldValue: 'Road Express',
        newValue: 'ColdAir Logistics',
        reason: null,
      },
    ],
    temps,
    timing: { startTimeSeconds: START, startDelay: 0, intervalSeconds: 60 },
    unit,
    timeZone: 'Europe/Berlin',
    generatedAt: new Date(),
    generatedBy: 'Dana Quality',
  };
}

interface Run {
  ms: number;
  bytes: number;
  rssDelta: number;
  heapDelta: number;
}

/** Best of `times` runs; memory: the largest RSS and heap growth sampled during a run. */
async function measure(fn: () => Promise<Buffer> | Buffer, times = 3): Promise<Run> {
  let best: Run | null = null;
  for (let k = 0; k < times; k++) {
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 5);
    const start = performance.now();
    const out = await fn();
    const ms = performance.now() - start;
    clearInterval(sampler);
    const after = process.memoryUsage();
    peakRss = Math.max(peakRss, after.rss);
    peakHeap = Math.max(peakHeap, after.heapUsed);
    const run = {
      ms,
      bytes: out.length,
      rssDelta: peakRss - before.rss,
      heapDelta: peakHeap - before.heapUsed,
    };
    if (best === null || run.ms < best.ms) best = run;
  }
  return best!;
}

const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024, 2)} MB`;

export async function reportsBench(): Promise<void> {
  const data = sampleReportData();
  const rows = data.temps.length;

  // Baseline: the same point rows (index, local time, temperature) joined as text.
  const baseline = await measure(() => {
    const convert = unitConverter(data.unit);
    const wall = wallClock(data.timeZone);
    const lines: string[] = [];
    data.temps.forEach((t, i) => {
      if (t === null) return;
      lines.push(`${i},"${formatWall(wall(pointMs(data.timing, i)!))}",${convert(t).toFixed(1)}`);
    });
    return Buffer.from(lines.join('\n'));
  });

  const results: [string, Run, string][] = [
    ['baseline (join)', baseline, ''],
    ['csv', await measure(() => renderCsv(data)), 'aim >= 300,000 rows/s'],
    ['xlsx', await measure(() => renderXlsx(data)), 'aim >= 40,000 rows/s'],
    ['pdf', await measure(() => renderPdf(data)), 'aim < 1,000 ms'],
  ];
  console.log(`${fmt(rows, 0)} points per report (best of 3 runs)`);
  for (const [name, run, aim] of results) {
    console.log(
      `${name.padEnd(16)} ${fmt(run.ms).padStart(8)} ms  ${fmt((rows * 1000) / run.ms, 0).padStart(10)} rows/s  ` +
        `x${fmt(run.ms / baseline.ms, 2).padEnd(6)} baseline  ${mb(run.bytes).padStart(9)} file  ` +
        `peak RSS +${mb(run.rssDelta)}, heap +${mb(run.heapDelta)}  ${aim}`,
    );
  }
}

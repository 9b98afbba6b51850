import {
  KPI_DEFAULT_DAYS,
  KPI_MAX_DAYS,
  KPI_WEEKLY_MAX_DAYS,
  type TKpiGroup,
  type TKpiReport,
  type TKpiRow,
} from '@coldtrace/contract';
import { roundHalfAwayFromZero } from '@coldtrace/domain';
import { stringify } from 'csv-stringify/sync';
import type { Db } from '../../db/client';
import { invalidField } from '../../kernel/errors';
import { roundStored } from '../../kernel/series-store';
import { neutralise } from '../reports';
import { kpiSums, locationNames, type KpiSums } from './repository';

/** Lane and carrier KPIs (issue 15 item 4, docs/decisions/kpis.md). */

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface KpiQuery {
  from?: string | undefined;
  to?: string | undefined;
  group_by?: TKpiGroup | undefined;
  product?: string | undefined;
}

/** A YYYY-MM-DD day as its UTC midnight in ms, or a 400 naming `field`. */
function day(field: string, text: string): number {
  const m = DATE.exec(text);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) {
    throw invalidField(field, 'must be a date (YYYY-MM-DD)');
  }
  return ms;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The period's first and last day (UTC midnights, `to` included). */
export function periodOf(q: KpiQuery, now = Date.now()): { from: number; to: number } {
  const to = q.to === undefined ? Math.floor(now / DAY_MS) * DAY_MS : day('to', q.to);
  const from = q.from === undefined ? to - (KPI_DEFAULT_DAYS - 1) * DAY_MS : day('from', q.from);
  if (from > to) throw invalidField('to', 'must not be before from');
  if ((to - from) / DAY_MS + 1 > KPI_MAX_DAYS) {
    throw invalidField('from', `the period must be at most ${KPI_MAX_DAYS} days`);
  }
  return { from, to };
}

/** Every bucket start (YYYY-MM-DD) from the one holding `from` to the one holding `to`. */
export function bucketsOf(from: number, to: number, interval: 'week' | 'month'): string[] {
  const out: string[] = [];
  const d = new Date(from);
  if (interval === 'week') {
    // Monday of from's week (date_trunc('week') in PostgreSQL is ISO: Monday).
    d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    for (; d.getTime() <= to; d.setUTCDate(d.getUTCDate() + 7)) out.push(isoDay(d.getTime()));
  } else {
    d.setUTCDate(1);
    for (; d.getTime() <= to; d.setUTCMonth(d.getUTCMonth() + 1)) out.push(isoDay(d.getTime()));
  }
  return out;
}

/**
 * Every figure of a KPI reply at the precision of every other figure the API
 * answers (`roundStored`, kernel/series-store.ts): a sum of alarms'
 * degree-minutes adds doubles in SQL, so 0.1-step values sum to
 * 1296.4999999999998 where 1296.5 is meant (issue 35).
 */
const rate = (part: number, whole: number) => (whole === 0 ? 0 : roundStored(part / whole));
/** Likewise, null when there is nothing to divide by (no shipment, no acknowledged alarm). */
const ratio = (part: number, whole: number) => (whole === 0 ? null : roundStored(part / whole));

function measures(s: KpiSums) {
  return {
    shipments: s.shipments,
    shipments_with_excursion: s.withExcursion,
    excursion_rate: rate(s.withExcursion, s.shipments),
    degree_minutes: roundStored(s.degreeMinutes),
    mean_minutes_to_acknowledge: ratio(s.ackMinutes, s.acknowledged),
    released_share: ratio(s.released, s.shipments),
    rejected_share: ratio(s.rejected, s.shipments),
  };
}

const EMPTY: KpiSums = {
  kind: 'total',
  originId: null,
  destinationId: null,
  carrier: null,
  bucket: null,
  shipments: 0,
  withExcursion: 0,
  degreeMinutes: 0,
  ackMinutes: 0,
  acknowledged: 0,
  released: 0,
  rejected: 0,
};

async function report(db: Db, organizationId: string, q: KpiQuery): Promise<TKpiReport> {
  const { from, to } = periodOf(q);
  const groupBy = q.group_by ?? 'lane';
  const days = (to - from) / DAY_MS + 1;
  const interval = days <= KPI_WEEKLY_MAX_DAYS ? 'week' : 'month';
  const sums = await kpiSums(db, {
    organizationId,
    fromSeconds: from / 1000,
    toSeconds: (to + DAY_MS) / 1000,
    groupBy,
    interval,
    product: q.product,
  });
  const groups = sums.filter((s) => s.kind === 'group');
  const ids = new Set<string>();
  for (const g of groups) {
    if (g.originId) ids.add(g.originId);
    if (g.destinationId) ids.add(g.destinationId);
  }
  const names = new Map(
    (await locationNames(db, organizationId, [...ids])).map((l) => [l.id, l.name]),
  );
  const location = (id: string | null) => (id === null ? null : { id, name: names.get(id) ?? '' });
  const rows: TKpiRow[] = groups
    .map((g) =>
      groupBy === 'lane'
        ? { origin: location(g.originId), destination: location(g.destinationId), ...measures(g) }
        : { carrier: g.carrier ?? '', ...measures(g) },
    )
    .sort(
      (a, b) =>
        b.shipments - a.shipments ||
        Number(unnamed(a)) - Number(unnamed(b)) ||
        label(a).localeCompare(label(b), 'en', { numeric: true }),
    );
  const perBucket = new Map(sums.filter((s) => s.kind === 'bucket').map((s) => [s.bucket, s]));
  const series = bucketsOf(from, to, interval).map((start) => {
    const s = perBucket.get(start) ?? EMPTY;
    return {
      period_start: start,
      shipments: s.shipments,
      shipments_with_excursion: s.withExcursion,
      excursion_rate: rate(s.withExcursion, s.shipments),
    };
  });
  const total = sums.find((s) => s.kind === 'total') ?? EMPTY;
  return {
    from: isoDay(from),
    to: isoDay(to),
    group_by: groupBy,
    interval,
    rows,
    totals: measures(total),
    series,
  };
}

/** The report as CSV: one row per lane or carrier, text cells neutralised. */
async function csv(
  db: Db,
  organizationId: string,
  q: KpiQuery,
): Promise<{ fileName: string; content: Buffer }> {
  const r = await report(db, organizationId, q);
  const head = r.group_by === 'lane' ? ['Origin', 'Destination'] : ['Carrier'];
  const records: (string | number)[][] = [
    [
      ...head,
      'Shipments',
      'Shipments with excursion',
      'Excursion rate',
      'Degree-minutes',
      'Mean minutes to acknowledge',
      'Released share',
      'Rejected share',
    ],
  ];
  // Half away from zero on the decimal the figure shows, as the domain rounds (not toFixed's binary).
  const num = (v: number | null, digits: number) =>
    v === null ? '' : roundHalfAwayFromZero(v, digits).toFixed(digits);
  for (const row of r.rows) {
    const keys =
      r.group_by === 'lane'
        ? [neutralise(row.origin?.name ?? ''), neutralise(row.destination?.name ?? '')]
        : [neutralise(row.carrier ?? '')];
    records.push([
      ...keys,
      row.shipments,
      row.shipments_with_excursion,
      num(row.excursion_rate, 4),
      num(row.degree_minutes, 1),
      num(row.mean_minutes_to_acknowledge, 1),
      num(row.released_share, 4),
      num(row.rejected_share, 4),
    ]);
  }
  const content = Buffer.concat([
    Buffer.from('\uFEFF', 'utf8'),
    Buffer.from(stringify(records), 'utf8'),
  ]);
  return { fileName: `kpis-${r.group_by}-${r.from}-${r.to}.csv`, content };
}

export function createKpisService(db: Db) {
  return {
    report: (organizationId: string, q: KpiQuery) => report(db, organizationId, q),
    csv: (organizationId: string, q: KpiQuery) => csv(db, organizationId, q),
  };
}

/** A row without a lane (no origin and no destination) or without a carrier: listed after the named ones. */
function unnamed(row: TKpiRow): boolean {
  return row.carrier === '' || (row.origin === null && row.destination === null);
}

function label(row: TKpiRow): string {
  return row.carrier ?? `${row.origin?.name ?? ''} ${row.destination?.name ?? ''}`;
}

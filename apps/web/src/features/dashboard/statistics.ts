import type { TRecordStatistics } from '@coldtrace/contract';
import type { FilterItem } from '@coldtrace/domain';
import { zonedDayBounds } from '../../components/server-grid/zoned-day';
import { allDevicesHref, allRecordsHref } from '../records';
import type { StatisticsRange } from './api/get-statistics';

/**
 * The dashboard's statistic cards (ui.md): records, in alarm, without alarm,
 * active, stopped, scans made, running tags, idle tags. A card links to the
 * list filtered to what it counts, where a filter can say it:
 * - in alarm: computed_status is Alarm; without alarm: computed_status is not
 *   Alarm (the rest, as the server counts it, empty included);
 * - active: active is true; stopped: active is false;
 * - over a date range: also created from the first day to the last (and);
 * - running and idle tags: All Devices by running, only for the whole
 *   organization (a range counts tags by their records, which a tag filter
 *   cannot say) and for users who may open All Devices;
 * - scans made: no list of scans, no link.
 */

export type StatisticKey = keyof TRecordStatistics;

export interface StatisticCard {
  key: StatisticKey;
  label: string;
  /** What the number counts, for people. */
  description: string;
  tone: 'neutral' | 'alarm' | 'ok';
  href?: string;
}

/** The date range of the statistics, as calendar days in the user's zone. */
export interface DayRange {
  from: string;
  to: string;
}

interface CardDef {
  key: StatisticKey;
  label: string;
  description: string;
  tone: StatisticCard['tone'];
  records?: FilterItem[];
  devices?: FilterItem[];
}

const CARDS: readonly CardDef[] = [
  { key: 'num_records', label: 'Records', description: 'records', tone: 'neutral', records: [] },
  {
    key: 'num_alarm_records',
    label: 'In alarm',
    description: 'records in alarm',
    tone: 'alarm',
    records: [{ field: 'computed_status', operator: 'is', value: 'Alarm' }],
  },
  {
    key: 'num_no_alarm_records',
    label: 'Without alarm',
    description: 'records without alarm',
    tone: 'ok',
    records: [{ field: 'computed_status', operator: 'not', value: 'Alarm' }],
  },
  {
    key: 'num_active_records',
    label: 'Active',
    description: 'active records',
    tone: 'neutral',
    records: [{ field: 'active', operator: 'is', value: 'true' }],
  },
  {
    key: 'num_stopped_records',
    label: 'Stopped',
    description: 'stopped records',
    tone: 'neutral',
    records: [{ field: 'active', operator: 'is', value: 'false' }],
  },
  { key: 'scans_made', label: 'Scans made', description: 'scans made', tone: 'neutral' },
  {
    key: 'running_tags',
    label: 'Running tags',
    description: 'running tags',
    tone: 'neutral',
    devices: [{ field: 'running', operator: 'is', value: 'true' }],
  },
  {
    key: 'idle_tags',
    label: 'Idle tags',
    description: 'idle tags',
    tone: 'neutral',
    devices: [{ field: 'running', operator: 'is', value: 'false' }],
  },
];

/**
 * Over a date range only: the records whose alarm started in it, whenever
 * they were created (alarm time; the other cards count by shipment time, the
 * record's creation). No link: All Records cannot filter by an alarm's time.
 */
export const ALARM_TIME_CARD: StatisticCard = {
  key: 'num_alarm_started_records',
  label: 'Alarms started',
  description: 'records with an alarm that started in the period (by alarm time)',
  tone: 'alarm',
};

export function statisticCards(
  range: DayRange | null,
  options: { canSeeDevices: boolean },
): StatisticCard[] {
  const cards = shipmentTimeCards(range, options);
  return range ? [...cards, ALARM_TIME_CARD] : cards;
}

function shipmentTimeCards(
  range: DayRange | null,
  options: { canSeeDevices: boolean },
): StatisticCard[] {
  const createdInRange: FilterItem[] = range
    ? [
        { field: 'created', operator: 'onOrAfter', value: range.from },
        { field: 'created', operator: 'onOrBefore', value: range.to },
      ]
    : [];
  return CARDS.map(({ records, devices, ...card }) => {
    if (records) {
      const filterItems = [...records, ...createdInRange];
      return {
        ...card,
        href: allRecordsHref({
          filterItems,
          filterLogicOperator: filterItems.length > 1 ? 'and' : 'or',
        }),
      };
    }
    if (devices && range === null && options.canSeeDevices) {
      return { ...card, href: allDevicesHref({ filterItems: devices }) };
    }
    return card;
  });
}

export type RangeResult =
  | { kind: 'whole' }
  | { kind: 'incomplete'; message: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'range'; days: DayRange; query: StatisticsRange };

/**
 * The statistics call for the chosen days: the summary when none is chosen,
 * the filtered counts from the first minute of `from` to the last minute of
 * `to` in the user's zone when both are.
 */
export function statisticsRange(
  from: string | null | undefined,
  to: string | null | undefined,
  timeZone: string,
): RangeResult {
  const start = from ? zonedDayBounds(from, timeZone) : null;
  const end = to ? zonedDayBounds(to, timeZone) : null;
  if (!from && !to) return { kind: 'whole' };
  if ((from && !start) || (to && !end)) return { kind: 'invalid', message: 'Enter valid dates.' };
  if (!start || !end) {
    return { kind: 'incomplete', message: 'Choose both a start and an end date.' };
  }
  if (from! > to!) {
    return { kind: 'invalid', message: 'The start date is after the end date.' };
  }
  return {
    kind: 'range',
    days: { from: from!, to: to! },
    query: { start_date: start.start, end_date: end.end },
  };
}

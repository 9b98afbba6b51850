import { searchParamsToTableState } from '@coldtrace/domain';
import { describe, expect, it } from 'vitest';
import { statisticCards, statisticsRange } from './statistics';

function linkState(href: string | undefined) {
  expect(href).toBeDefined();
  const url = new URL(href!, 'http://localhost');
  return { path: url.pathname, state: searchParamsToTableState(url.searchParams, 20) };
}

describe('statistic cards [SPEC-3, FEAT-KEPT-COUNTS]', () => {
  const cards = statisticCards(null, { canSeeDevices: true });
  const byKey = Object.fromEntries(cards.map((card) => [card.key, card]));

  it('are the eight counts of the spec, in order', () => {
    expect(cards.map((card) => card.label)).toEqual([
      'Records',
      'In alarm',
      'Without alarm',
      'Active',
      'Stopped',
      'Scans made',
      'Running tags',
      'Idle tags',
    ]);
  });

  it('link to All Records filtered to what they count', () => {
    expect(linkState(byKey.num_records!.href)).toMatchObject({
      path: '/allrecords',
      state: { filterItems: [], pageNumber: 0, pageSize: 20 },
    });
    expect(linkState(byKey.num_alarm_records!.href).state.filterItems).toEqual([
      { field: 'computed_status', operator: 'is', value: 'Alarm' },
    ]);
    expect(linkState(byKey.num_no_alarm_records!.href).state.filterItems).toEqual([
      { field: 'computed_status', operator: 'not', value: 'Alarm' },
    ]);
    expect(linkState(byKey.num_active_records!.href).state.filterItems).toEqual([
      { field: 'active', operator: 'is', value: 'true' },
    ]);
    expect(linkState(byKey.num_stopped_records!.href).state.filterItems).toEqual([
      { field: 'active', operator: 'is', value: 'false' },
    ]);
  });

  it('link the tag counts to All Devices, and scans to nothing', () => {
    expect(byKey.scans_made!.href).toBeUndefined();
    expect(linkState(byKey.running_tags!.href)).toMatchObject({
      path: '/alldevices',
      state: { filterItems: [{ field: 'running', operator: 'is', value: 'true' }] },
    });
    expect(linkState(byKey.idle_tags!.href).state.filterItems).toEqual([
      { field: 'running', operator: 'is', value: 'false' },
    ]);
    const noDevices = statisticCards(null, { canSeeDevices: false });
    expect(noDevices.find((card) => card.key === 'running_tags')!.href).toBeUndefined();
  });

  it('over a date range, also filter on the creation day, joined by and', () => {
    const ranged = statisticCards(
      { from: '2025-03-01', to: '2025-03-31' },
      { canSeeDevices: true },
    );
    const alarm = linkState(ranged.find((card) => card.key === 'num_alarm_records')!.href);
    expect(alarm.state.filterLogicOperator).toBe('and');
    expect(alarm.state.filterItems).toEqual([
      { field: 'computed_status', operator: 'is', value: 'Alarm' },
      { field: 'created', operator: 'onOrAfter', value: '2025-03-01' },
      { field: 'created', operator: 'onOrBefore', value: '2025-03-31' },
    ]);
    // Tags are counted by their records in a range: no tag filter says that.
    expect(ranged.find((card) => card.key === 'running_tags')!.href).toBeUndefined();
  });
});

describe('statisticsRange [SPEC-3, FEAT-KEPT-COUNTS]', () => {
  it('is the summary without dates', () => {
    expect(statisticsRange(null, null, 'UTC')).toEqual({ kind: 'whole' });
  });

  it('asks for both dates, in order', () => {
    expect(statisticsRange('2025-03-01', null, 'UTC').kind).toBe('incomplete');
    expect(statisticsRange('2025-03-02', '2025-03-01', 'UTC')).toMatchObject({
      kind: 'invalid',
      message: 'The start date is after the end date.',
    });
    expect(statisticsRange('2025-13-01', '2025-03-01', 'UTC').kind).toBe('invalid');
  });

  it('sends the first minute of the first day and the last of the last, in the zone', () => {
    expect(statisticsRange('2025-03-01', '2025-03-31', 'Europe/Paris')).toEqual({
      kind: 'range',
      days: { from: '2025-03-01', to: '2025-03-31' },
      query: { start_date: '2025-03-01T00:00+01:00', end_date: '2025-03-31T23:59+02:00' },
    });
  });
});

describe('statistic cards by alarm time (issue 14 item 1) [SPEC-3, FEAT-KEPT-COUNTS]', () => {
  it('over a range only: Alarms started, counted by alarm time, without a link', () => {
    expect(statisticCards(null, { canSeeDevices: true }).map((c) => c.key)).not.toContain(
      'num_alarm_started_records',
    );
    const cards = statisticCards({ from: '2025-03-01', to: '2025-03-07' }, { canSeeDevices: true });
    const last = cards[cards.length - 1]!;
    expect(last).toMatchObject({ key: 'num_alarm_started_records', label: 'Alarms started' });
    expect(last.description).toContain('alarm time');
    expect(last.href).toBeUndefined();
    // The others still count by shipment time: their links filter on created.
    expect(cards.find((c) => c.key === 'num_alarm_records')!.href).toContain('created');
  });
});

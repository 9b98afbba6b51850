import type { TExcursionAlarm, TRecord, TStabilityBandUsage } from '@coldtrace/contract';
import type { CheckList } from './checks';
import type { RequirementId } from './requirements';
import { EXPECTED_BUDGET, TOLERANCE, type ExpectedExcursion } from './fixtures';

/**
 * The figures of one record compared with a fixture's expectations: the summary
 * (RULES §3), each excursion alarm (RULES §2) and the stability budget bands.
 */

export interface ExpectedSummary {
  points: number;
  highest: number;
  lowest: number;
  durationS: number;
  mkt: number;
}

/** Summary figures of `record` (started at `start`, Unix seconds). */
export function summaryChecks(
  list: CheckList,
  leg: string,
  record: TRecord,
  start: number,
  expected: ExpectedSummary,
): void {
  const t = (what: string) => `Shipment ${leg}: ${what}`;
  list.number({
    id: `${leg}.points`,
    requirements: ['RULE-SUMMARY-1'],
    title: t('number of points'),
    expected: expected.points,
    actual: record.number_of_points,
  });
  list.number({
    id: `${leg}.highest`,
    requirements: ['RULE-SUMMARY-1'],
    title: t('highest temperature'),
    expected: expected.highest,
    actual: record.highest_recorded_temperature,
    tolerance: TOLERANCE.temperatureC,
    unit: '°C',
  });
  list.number({
    id: `${leg}.lowest`,
    requirements: ['RULE-SUMMARY-1'],
    title: t('lowest temperature'),
    expected: expected.lowest,
    actual: record.lowest_recorded_temperature,
    tolerance: TOLERANCE.temperatureC,
    unit: '°C',
  });
  list.time({
    id: `${leg}.first-point`,
    requirements: ['RULE-SUMMARY-1', 'RULE-SERIES-2'],
    title: t('first point'),
    expectedSeconds: start,
    actual: record.first_point,
  });
  list.time({
    id: `${leg}.last-point`,
    requirements: ['RULE-SUMMARY-1', 'RULE-SERIES-2'],
    title: t('last point'),
    expectedSeconds: start + expected.durationS,
    actual: record.last_point,
  });
  list.number({
    id: `${leg}.duration`,
    requirements: ['RULE-SUMMARY-1'],
    title: t('record duration'),
    expected: expected.durationS,
    actual: record.record_duration,
    unit: 's',
  });
  list.number({
    id: `${leg}.mkt`,
    requirements: ['RULE-SUMMARY-2'],
    title: t('mean kinetic temperature'),
    expected: expected.mkt,
    actual: record.mean_kinetic_temp,
    tolerance: TOLERANCE.mktC,
    unit: '°C',
  });
}

const byKind = (alarms: TExcursionAlarm[], kind: string, direction: string) =>
  alarms.filter((a) => (a.kind ?? 'excursion') === kind && a.above_or_below === direction);

/** One excursion alarm: found once, and each of its figures. */
export function excursionChecks(
  list: CheckList,
  leg: string,
  alarms: TExcursionAlarm[],
  start: number,
  e: ExpectedExcursion,
): void {
  const found = byKind(alarms, 'excursion', e.direction);
  const a = found[0];
  const id = `${leg}.excursion-${e.direction.toLowerCase()}`;
  const t = (what: string) => `Shipment ${leg}, ${e.direction} excursion: ${what}`;
  const req = ['RULE-ALARM-4'] as const;
  list.number({
    id: `${id}.count`,
    requirements: [...req],
    title: t('alarms raised'),
    expected: 1,
    actual: found.length,
  });
  list.number({
    id: `${id}.first-idx`,
    requirements: [...req],
    title: t('first point index'),
    expected: e.firstIdx,
    actual: a?.first_point_idx,
  });
  list.number({
    id: `${id}.last-idx`,
    requirements: [...req],
    title: t('last point index'),
    expected: e.lastIdx,
    actual: a?.last_point_idx,
  });
  list.time({
    id: `${id}.start`,
    requirements: [...req],
    title: t('start'),
    expectedSeconds: start + e.startOffsetS,
    actual: a?.start_time,
  });
  list.time({
    id: `${id}.end`,
    requirements: [...req],
    title: t('end'),
    expectedSeconds: start + e.endOffsetS,
    actual: a?.end_time,
  });
  list.number({
    id: `${id}.duration`,
    requirements: [...req],
    title: t('duration'),
    expected: e.durationS,
    actual: a?.duration,
    unit: 's',
  });
  list.number({
    id: `${id}.degree-minutes`,
    requirements: [...req],
    title: t('degree-minutes'),
    expected: e.degreeMinutes,
    actual: a?.degree_minutes,
    tolerance: TOLERANCE.degreeMinutes,
    unit: '°C·min',
  });
  list.number({
    id: `${id}.extreme`,
    requirements: [...req],
    title: t(e.direction === 'ABOVE' ? 'highest temperature in it' : 'lowest temperature in it'),
    expected: e.extreme,
    actual:
      e.direction === 'ABOVE' ? a?.highest_recorded_temperature : a?.lowest_recorded_temperature,
    tolerance: TOLERANCE.temperatureC,
    unit: '°C',
  });
}

/** Alarms of a kind and direction: how many (0 when none may be raised). */
export function alarmCount(
  list: CheckList,
  input: {
    id: string;
    title: string;
    requirement: RequirementId;
  },
  alarms: TExcursionAlarm[],
  kind: string,
  direction: string,
  expected: number,
): TExcursionAlarm | undefined {
  const found = byKind(alarms, kind, direction);
  list.number({
    id: input.id,
    requirements: [input.requirement],
    title: input.title,
    expected,
    actual: found.length,
  });
  return found[0];
}

/** The two bands of OQ-SHIP as one leg's record reply shows them (`id`: the checks' id prefix). */
export function budgetChecks(
  list: CheckList,
  id: string,
  title: string,
  record: TRecord,
  expected: { ABOVE: BandExpectation; BELOW: BandExpectation },
): void {
  const budget = record.stability_budget;
  const req = ['FEAT-STABILITY-BUDGET'] as const;
  const t = (what: string) => `${title}: ${what}`;
  list.number({
    id: `${id}.legs`,
    requirements: [...req],
    title: t('legs summed'),
    expected: expected.ABOVE.legs,
    actual: budget?.legs.length,
  });
  for (const direction of ['ABOVE', 'BELOW'] as const) {
    const e = expected[direction];
    const band: TStabilityBandUsage | undefined = budget?.bands.find(
      (b) => b.direction === direction,
    );
    const bandId = `${id}.${direction.toLowerCase()}`;
    const name = `budget ${direction === 'ABOVE' ? 'above 8.0' : 'below 2.0'} °C`;
    list.number({
      id: `${bandId}.consumed`,
      requirements: [...req],
      title: t(`${name}, consumed`),
      expected: e.consumed,
      actual: band?.consumed_minutes,
      tolerance: TOLERANCE.minutes,
      unit: 'min',
    });
    list.number({
      id: `${bandId}.remaining`,
      requirements: [...req],
      title: t(`${name}, remaining`),
      expected: e.remaining,
      actual: band?.remaining_minutes,
      tolerance: TOLERANCE.minutes,
      unit: 'min',
    });
    list.number({
      id: `${bandId}.this-leg`,
      requirements: [...req],
      title: t(`${name}, this leg`),
      expected: e.thisLeg,
      actual: band?.this_leg_minutes,
      tolerance: TOLERANCE.minutes,
      unit: 'min',
    });
    list.equals({
      id: `${bandId}.used-up`,
      requirements: [...req],
      title: t(`${name}, used up`),
      expected: e.usedUp,
      actual: band?.used_up,
    });
  }
}

export interface BandExpectation {
  legs: number;
  consumed: number;
  remaining: number;
  thisLeg: number;
  usedUp: boolean;
}

/** The expected bands of a leg once both legs are uploaded. */
export function bothLegs(leg: 'A' | 'B'): { ABOVE: BandExpectation; BELOW: BandExpectation } {
  const band = (d: 'ABOVE' | 'BELOW'): BandExpectation => {
    const b = EXPECTED_BUDGET[d];
    return {
      legs: EXPECTED_BUDGET.legs,
      consumed: b.consumed,
      remaining: b.remaining,
      usedUp: b.usedUp,
      thisLeg: leg === 'A' ? b.legA : b.legB,
    };
  };
  return { ABOVE: band('ABOVE'), BELOW: band('BELOW') };
}

import { CheckList, type Check } from './checks';
import { signingSteps, trailSteps, transitSteps } from './review-steps';
import {
  connect,
  createOrganization,
  legs,
  readAlarms,
  readRecord,
  runNames,
  uploadLeg,
  type Instance,
  type Operator,
} from './drive';
import {
  EXPECTED_A,
  EXPECTED_B,
  EXPECTED_BUDGET,
  EXPECTED_BUDGET_A_ALONE,
  SERIES_A,
  SERIES_B,
  SERIES_C,
  START_OFFSET_H,
} from './fixtures';
import {
  alarmCount,
  bothLegs,
  budgetChecks,
  excursionChecks,
  summaryChecks,
} from './record-checks';

/**
 * The OQ scenario: a throwaway organization, three scripted shipments, every figure
 * read back through the API and compared, then the signatures and the release
 * rules. Nothing is deleted: the organization stays, with its trail.
 */

export interface OqOptions {
  baseUrl: string;
  email: string;
  password: string;
  /** Expected values replaced by check id (the suite's own test proves a wrong one fails). */
  overrides?: Record<string, unknown>;
  now?: Date;
  log?: (message: string) => void;
}

export interface OqResult {
  startedAt: string;
  finishedAt: string;
  instance: Instance;
  operator: Operator;
  organization: { id: string; name: string };
  records: Record<'A' | 'B' | 'C', string>;
  checks: Check[];
}

export async function runOq(options: OqOptions): Promise<OqResult> {
  const log = options.log ?? (() => undefined);
  const now = options.now ?? new Date();
  const startedAt = now.toISOString();
  const { client, operator, instance } = await connect(
    options.baseUrl,
    options.email,
    options.password,
  );
  log(`signed in to ${instance.baseUrl} as ${operator.username} (API ${instance.apiVersion})`);
  const names = runNames(now);
  const organization = await createOrganization(client, names);
  log(`created the organization '${organization.name}' and the product '${names.product}'`);

  const list = new CheckList(options.overrides);
  // t0: a whole hour, 26 hours ago: every point of every leg lies in the past.
  const t0 = Math.floor(now.getTime() / 3_600_000) * 3600 - 26 * 3600;
  const leg = legs(names, t0, START_OFFSET_H);
  const a = leg.A(SERIES_A);
  const b = leg.B(SERIES_B);
  const c = leg.C(SERIES_C);

  // ---- Shipment A: one upload, the same scan again, stopped.
  const recordA = await uploadLeg(client, a, {
    stop: true,
    repeatScan: true,
    afterFirstScan: async (id) => {
      const first = await readRecord(client, id);
      list.number({
        id: 'A.points-first-scan',
        requirements: ['RULE-SERIES-3'],
        title: 'Shipment A: points after the first scan',
        expected: EXPECTED_A.points,
        actual: first.number_of_points,
      });
    },
  });
  const afterRepeat = await readRecord(client, recordA);
  list.number({
    id: 'A.points-repeated-scan',
    requirements: ['RULE-SERIES-3'],
    title: 'Shipment A: points after the same scan sent again and the stop',
    expected: EXPECTED_A.points,
    actual: afterRepeat.number_of_points,
  });
  summaryChecks(list, 'A', afterRepeat, a.start, EXPECTED_A);
  const alarmsA = await readAlarms(client, recordA);
  for (const e of EXPECTED_A.excursions) excursionChecks(list, 'A', alarmsA, a.start, e);
  const cumulative = alarmCount(
    list,
    {
      id: 'A.cumulative-above.count',
      title: 'Shipment A: cumulative alarms above 8.0 °C (1,800 s > 00:20:00)',
      requirement: 'RULE-ALARM-5',
    },
    alarmsA,
    'cumulative',
    'ABOVE',
    1,
  );
  list.number({
    id: 'A.cumulative-above.duration',
    requirements: ['RULE-ALARM-5'],
    title: 'Shipment A: cumulative alarm above 8.0 °C, duration',
    expected: EXPECTED_A.cumulativeAboveS,
    actual: cumulative?.duration,
    unit: 's',
  });
  alarmCount(
    list,
    {
      id: 'A.cumulative-below.count',
      title: 'Shipment A: cumulative alarms below 2.0 °C (1,200 s, not more than 00:30:00)',
      requirement: 'RULE-ALARM-5',
    },
    alarmsA,
    'cumulative',
    'BELOW',
    0,
  );
  alarmCount(
    list,
    {
      id: 'A.budget-alarm.count',
      title: 'Shipment A alone: budget alarms (30 of 45 min above 8.0 °C)',
      requirement: 'FEAT-STABILITY-BUDGET',
    },
    alarmsA,
    'budget',
    'ABOVE',
    0,
  );
  list.number({
    id: 'A.alarms',
    requirements: ['RULE-ALARM-4', 'RULE-ALARM-5'],
    title: 'Shipment A: alarms raised in all',
    expected: EXPECTED_A.alarms,
    actual: alarmsA.length,
  });
  list.equals({
    id: 'A.status',
    requirements: ['RULE-ALARM-6'],
    title: 'Shipment A: record status',
    expected: 'Alarm',
    actual: afterRepeat.status,
  });
  budgetChecks(list, 'A.budget-alone', 'Shipment A alone', afterRepeat, EXPECTED_BUDGET_A_ALONE);
  log(`shipment A: record ${recordA}, ${alarmsA.length} alarms`);

  // ---- Shipment B: the second leg of the same shipment, stopped.
  const recordB = await uploadLeg(client, b, { stop: true });
  const readB = await readRecord(client, recordB);
  summaryChecks(list, 'B', readB, b.start, EXPECTED_B);
  const alarmsB = await readAlarms(client, recordB);
  for (const e of EXPECTED_B.excursions) excursionChecks(list, 'B', alarmsB, b.start, e);
  list.number({
    id: 'B.alarms',
    requirements: ['RULE-ALARM-4', 'FEAT-STABILITY-BUDGET'],
    title:
      'Shipment B: alarms raised in all (no alarm for the single 8.4 °C point, nor for 8.0 °C)',
    expected: EXPECTED_B.alarms,
    actual: alarmsB.length,
  });
  const budgetAlarm = alarmCount(
    list,
    {
      id: 'B.budget-alarm.count',
      title: 'Shipment B: budget alarms above 8.0 °C (60 of 45 min)',
      requirement: 'FEAT-STABILITY-BUDGET',
    },
    alarmsB,
    'budget',
    'ABOVE',
    1,
  );
  list.number({
    id: 'B.budget-alarm.duration',
    requirements: ['FEAT-STABILITY-BUDGET'],
    title: 'Shipment B: budget alarm, time consumed when raised',
    expected: EXPECTED_BUDGET.budgetAlarmDurationS,
    actual: budgetAlarm?.duration,
    unit: 's',
  });
  budgetChecks(list, 'B.budget', 'Shipment B (both legs)', readB, bothLegs('B'));
  budgetChecks(
    list,
    'A.budget',
    'Shipment A (both legs)',
    await readRecord(client, recordA),
    bothLegs('A'),
  );
  log(`shipment B: record ${recordB}, ${alarmsB.length} alarms`);

  const step = { client, list, password: options.password, operator, log };
  const recordC = await transitSteps(step, c);
  await signingSteps(step, recordA, recordB);
  await trailSteps(step, recordA);

  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    instance,
    operator,
    organization: { id: organization.id, name: organization.name },
    records: { A: recordA, B: recordB, C: recordC },
    checks: list.checks,
  };
}

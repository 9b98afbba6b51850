import {
  auditList,
  auditVerify,
  xt1AlarmAcknowledge,
  xt1RecordDisposition,
  xt1RecordDispositions,
  type TExcursionAlarm,
} from '@coldtrace/contract';
import type { ApiClient } from '../../simulator/src/api-client';
import type { CheckList } from './checks';
import {
  editTrip,
  readAlarms,
  readRecord,
  refusal,
  uploadLeg,
  type Leg,
  type Operator,
} from './drive';
import { EXPECTED_A, EXPECTED_C } from './fixtures';

/**
 * The OQ steps after the uploads: the trip and the release rules (shipment C), the
 * signatures and the release of A, the quarantine of B, the trail and the chain.
 */

export interface Step {
  client: ApiClient;
  list: CheckList;
  password: string;
  operator: Operator;
  log: (message: string) => void;
}

/** The refusals as docs/decisions/disposition.md words them (the 409 names `decision`). */
export const MESSAGES = {
  inTransit:
    'The record cannot be released while it is in transit: its trip has not ended (not arrived, and the record not stopped). Quarantine it, or wait for the trip to end.',
  unacknowledged: (n: number) =>
    `The record cannot be released: ${n === 1 ? '1 alarm is' : `${n} alarms are`} not acknowledged. Acknowledge them first, or quarantine or reject it.`,
};

/** Shipment C: no alarm, the trip entered by hand, released only once it has ended. */
export async function transitSteps(step: Step, c: Leg): Promise<string> {
  const { client, list, log } = step;
  const recordC = await uploadLeg(client, c, { stop: false });
  await editTrip(client, recordC, {
    begin_time: new Date((c.start + EXPECTED_C.beginOffsetS) * 1000).toISOString(),
  });
  const inTransit = await readRecord(client, recordC);
  list.number({
    id: 'C.mkt',
    requirements: ['RULE-SUMMARY-2'],
    title: 'Shipment C: mean kinetic temperature of a constant 5 °C',
    expected: EXPECTED_C.mkt,
    actual: inTransit.mean_kinetic_temp,
    tolerance: 0.01,
    unit: '°C',
  });
  list.equals({
    id: 'C.status',
    requirements: ['RULE-ALARM-6'],
    title: 'Shipment C: record status',
    expected: 'OK',
    actual: inTransit.status,
  });
  list.equals({
    id: 'C.trip-in-transit',
    requirements: ['RULE-TRIP-3'],
    title: 'Shipment C: trip status after the begin time is entered',
    expected: 'IN_TRANSIT',
    actual: inTransit.trip?.trip_status,
  });
  list.time({
    id: 'C.trip-begin',
    requirements: ['RULE-TRIP-3'],
    title: 'Shipment C: trip begin',
    expectedSeconds: c.start + EXPECTED_C.beginOffsetS,
    actual: inTransit.trip?.begin_time,
  });
  const transitRefusal = await refusal(() => release(client, recordC, step.password));
  list.number({
    id: 'C.release-in-transit.status',
    requirements: ['RULE-AUDIT-4'],
    title: 'Shipment C in transit: release refused (HTTP status)',
    expected: 409,
    actual: transitRefusal.status,
  });
  list.equals({
    id: 'C.release-in-transit.message',
    requirements: ['RULE-AUDIT-4'],
    title: 'Shipment C in transit: the refusal names decision',
    expected: MESSAGES.inTransit,
    actual: transitRefusal.fields.decision ?? null,
  });
  await editTrip(client, recordC, {
    end_time: new Date((c.start + EXPECTED_C.endOffsetS) * 1000).toISOString(),
  });
  const arrived = await readRecord(client, recordC);
  list.equals({
    id: 'C.trip-arrived',
    requirements: ['RULE-TRIP-3'],
    title: 'Shipment C: trip status after the end time is entered',
    expected: 'ARRIVED',
    actual: arrived.trip?.trip_status,
  });
  list.time({
    id: 'C.trip-end',
    requirements: ['RULE-TRIP-3'],
    title: 'Shipment C: trip end',
    expectedSeconds: c.start + EXPECTED_C.endOffsetS,
    actual: arrived.trip?.end_time,
  });
  const releasedC = await release(client, recordC, step.password);
  list.equals({
    id: 'C.release-arrived',
    requirements: ['RULE-AUDIT-4'],
    title: 'Shipment C arrived: released, signed as Approved',
    expected: 'RELEASED APPROVED',
    actual: `${releasedC.disposition?.decision} ${releasedC.disposition?.meaning}`,
  });
  log(`shipment C: record ${recordC}, released once arrived`);

  return recordC;
}

/** The release refused while alarms await acknowledgement, the signatures, the decisions. */
export async function signingSteps(step: Step, recordA: string, recordB: string): Promise<void> {
  const { client, list, operator } = step;
  const unacknowledged = await refusal(() => release(client, recordA, step.password));
  list.number({
    id: 'A.release-unacknowledged.status',
    requirements: ['RULE-AUDIT-4'],
    title: 'Shipment A with 3 unacknowledged alarms: release refused (HTTP status)',
    expected: 409,
    actual: unacknowledged.status,
  });
  list.equals({
    id: 'A.release-unacknowledged.message',
    requirements: ['RULE-AUDIT-4'],
    title: 'Shipment A: the refusal names decision',
    expected: MESSAGES.unacknowledged(EXPECTED_A.alarms),
    actual: unacknowledged.fields.decision ?? null,
  });
  const wrong = await refusal(() => acknowledge(client, recordA, `${step.password}-wrong`));
  list.number({
    id: 'A.acknowledge-wrong-password.status',
    requirements: ['FEAT-E-SIGNATURE'],
    title: 'Acknowledgement signed with a wrong password: refused (HTTP status)',
    expected: 400,
    actual: wrong.status,
  });
  list.equals({
    id: 'A.acknowledge-wrong-password.field',
    requirements: ['FEAT-E-SIGNATURE'],
    title: 'The refusal names the field password',
    expected: true,
    actual: Object.hasOwn(wrong.fields, 'password'),
  });
  const stillOpen = (await readAlarms(client, recordA)).filter((x) => x.acknowledged).length;
  list.number({
    id: 'A.acknowledge-wrong-password.none',
    requirements: ['FEAT-E-SIGNATURE'],
    title: 'Alarms acknowledged by the refused signature',
    expected: 0,
    actual: stillOpen,
  });
  const acknowledged = await acknowledge(client, recordA, step.password);
  signatureChecks(list, acknowledged, operator);
  const releasedA = await release(client, recordA, step.password);
  list.equals({
    id: 'A.release-acknowledged',
    requirements: ['RULE-AUDIT-4'],
    title: 'Shipment A, every alarm acknowledged: released, signed as Approved',
    expected: 'RELEASED APPROVED',
    actual: `${releasedA.disposition?.decision} ${releasedA.disposition?.meaning}`,
  });
  list.equals({
    id: 'A.review-state',
    requirements: ['RULE-AUDIT-4', 'FEAT-REVIEW-QUEUE'],
    title: 'Shipment A: review state after the release',
    expected: 'RELEASED',
    actual: releasedA.review_state,
  });
  const quarantined = await client.call(xt1RecordDisposition, {
    body: {
      record_id: recordB,
      decision: 'QUARANTINED',
      comment: 'OQ: quarantine of leg B',
      password: step.password,
    },
  });
  list.equals({
    id: 'B.quarantine',
    requirements: ['RULE-AUDIT-4'],
    title: 'Shipment B with unacknowledged alarms: quarantined, signed as Reviewed',
    expected: 'QUARANTINED REVIEWED',
    actual: `${quarantined.disposition?.decision} ${quarantined.disposition?.meaning}`,
  });
  const history = await client.call(xt1RecordDispositions, { query: { record_id: recordA } });
  list.equals({
    id: 'A.decision-signer',
    requirements: ['RULE-AUDIT-4', 'FEAT-E-SIGNATURE'],
    title: "Shipment A: the decision carries the signer's printed name",
    expected: operator.name,
    actual: history[0]?.signed_by ?? null,
  });
}

/** The audit trail of A and the organization's evidence chain. */
export async function trailSteps(step: Step, recordA: string): Promise<void> {
  const { client, list, log } = step;
  const trail = await client.call(auditList, { query: { record_id: recordA, page_size: 200 } });
  const actions = new Set(trail.map((e) => e.action));
  list.equals({
    id: 'A.trail-acknowledge',
    requirements: ['RULE-AUDIT-2'],
    title: 'Audit trail of shipment A holds the acknowledgement',
    expected: true,
    actual: actions.has('alarm.acknowledge'),
  });
  list.equals({
    id: 'A.trail-disposition',
    requirements: ['RULE-AUDIT-2'],
    title: 'Audit trail of shipment A holds the release decision',
    expected: true,
    actual: actions.has('record.disposition'),
  });
  const verification = await client.call(auditVerify);
  list.equals({
    id: 'org.chain-verifies',
    requirements: ['FEAT-EVIDENCE-CHAIN'],
    title: "The OQ organization's evidence chain verifies (GET /api/audit/verify/)",
    expected: true,
    actual: verification.verified,
  });
  log(
    `evidence chain: ${verification.entries} entries in ${verification.chains} chains, verified ${verification.verified}`,
  );
}

function release(client: ApiClient, recordId: string, password: string) {
  return client.call(xt1RecordDisposition, {
    body: { record_id: recordId, decision: 'RELEASED', comment: 'OQ: release', password },
  });
}

function acknowledge(client: ApiClient, recordId: string, password: string) {
  return client.call(xt1AlarmAcknowledge, {
    body: {
      record_ids: [recordId],
      comment: 'OQ: excursions reviewed',
      client_type: 'WEB',
      password,
      meaning: 'REVIEWED',
    },
  });
}

function signatureChecks(list: CheckList, alarms: TExcursionAlarm[], operator: Operator): void {
  const req = ['RULE-AUDIT-1', 'FEAT-E-SIGNATURE'] as const;
  list.number({
    id: 'A.acknowledged.count',
    requirements: [...req],
    title: 'Shipment A: alarms acknowledged by the signature',
    expected: EXPECTED_A.alarms,
    actual: alarms.filter((x) => x.acknowledged).length,
  });
  const signed = alarms.filter((x) => x.signature);
  list.equals({
    id: 'A.signature.meaning',
    requirements: [...req],
    title: 'Signature meaning on every alarm',
    expected: ['REVIEWED'],
    actual: [...new Set(signed.map((x) => x.signature?.meaning))],
  });
  list.equals({
    id: 'A.signature.signer',
    requirements: [...req],
    title: 'Signature user on every alarm',
    expected: [operator.userId],
    actual: [...new Set(signed.map((x) => x.signature?.user_id))],
  });
  list.equals({
    id: 'A.signature.comment',
    requirements: [...req],
    title: 'Signature comment on every alarm',
    expected: ['OQ: excursions reviewed'],
    actual: [...new Set(signed.map((x) => x.signature?.comment))],
  });
  list.equals({
    id: 'A.acknowledged-by',
    requirements: [...req],
    title: 'Acknowledged by (username) on every alarm',
    expected: [operator.username],
    actual: [...new Set(alarms.map((x) => x.acknowledged_by))],
  });
}

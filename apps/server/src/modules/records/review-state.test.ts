import { ZRecord } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, TEST_PASSWORD, type TestApp, type TestClient } from '../../../test/helpers';
import { scannedShipment, stoppedShipment } from '../../../test/shipment-factories';

/** Review state (issue 14 item 1, docs/decisions/review-queue.md). */

const XT1 = '/api/devices/xt1';
const SIGN = { password: TEST_PASSWORD } as const;
/** 9 points, high 8 and low 2: two alarms. */
const EXCURSIONS = [5, 5, 9, 9.5, 5, 5, 1, 1.5, 5];
const IN_RANGE = [5, 5, 5, 5];

describe('record review state [FEAT-REVIEW-QUEUE]', () => {
  let t: TestApp;
  let manager: TestClient;
  let stranger: TestClient;
  const ids: Record<string, string> = {};

  const record = async (client: TestClient, recordId: string) => {
    const res = await client.get(`${XT1}/record/?record_id=${recordId}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZRecord.parse(res.json());
  };
  const list = async (client: TestClient, query: string, pageSize = 1000) => {
    const res = await client.get(`${XT1}/records/?page_size=${pageSize}&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return {
      ids: z
        .array(ZRecord)
        .parse(res.json())
        .map((r) => r.id),
      total: Number(res.headers['x-total-count']),
    };
  };
  const decide = async (recordId: string, decision: string) => {
    const res = await manager.post(`${XT1}/records/disposition/`, {
      ...SIGN,
      record_id: recordId,
      decision,
      comment: `Decided ${decision}`,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const acknowledge = async (recordId: string) => {
    const res = await manager.post(`${XT1}/alarm-acknowledge/`, {
      record_ids: [recordId],
      comment: 'Reviewed',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({ client: manager } = await t.signIn({ role: 'Manager' }));
    ({ client: stranger } = await t.signIn({ role: 'Administrator' }));
    // One record per state, built through the calls a user makes.
    ids.noAlarms = (await scannedShipment(manager, IN_RANGE, 'RVS')).recordId;
    ids.open = (await scannedShipment(manager, EXCURSIONS, 'RVS')).recordId;
    ids.acknowledged = (await scannedShipment(manager, EXCURSIONS, 'RVS')).recordId;
    await acknowledge(ids.acknowledged);
    ids.dismissed = (await scannedShipment(manager, EXCURSIONS, 'RVS')).recordId;
    const dismiss = await manager.post(`${XT1}/alarm-dismiss/`, {
      record_ids: [ids.dismissed],
      reason: 'Sensor handled outside the box',
      client_type: 'WEB',
    });
    expect(dismiss.statusCode, dismiss.body).toBe(200);
    // Released: stopped first (a trip that has not ended is not released, issue 35).
    ids.released = (await stoppedShipment(manager, EXCURSIONS, 'RVS')).recordId;
    await acknowledge(ids.released);
    await decide(ids.released, 'RELEASED');
    ids.rejected = (await scannedShipment(manager, IN_RANGE, 'RVS')).recordId;
    await decide(ids.rejected, 'REJECTED');
    // Quarantined, or rejected, while its alarms await acknowledgement: the decision
    // is the state (issue 35: the review-state filters agree with the decision filter).
    ids.quarantinedOpen = (await scannedShipment(manager, EXCURSIONS, 'RVS')).recordId;
    await decide(ids.quarantinedOpen, 'QUARANTINED');
    ids.rejectedOpen = (await scannedShipment(manager, EXCURSIONS, 'RVS')).recordId;
    await decide(ids.rejectedOpen, 'REJECTED');
    // Quarantined, then released after acknowledgement: the latest decision.
    ids.releasedLater = (await stoppedShipment(manager, EXCURSIONS, 'RVS')).recordId;
    await decide(ids.releasedLater, 'QUARANTINED');
    await acknowledge(ids.releasedLater);
    await decide(ids.releasedLater, 'RELEASED');
    ids.quarantined = (await scannedShipment(manager, IN_RANGE, 'RVS')).recordId;
    await decide(ids.quarantined, 'QUARANTINED');
  });
  afterAll(() => t.close());

  const expected: Record<string, string> = {
    noAlarms: 'AWAITING_DECISION',
    open: 'AWAITING_ACKNOWLEDGEMENT',
    acknowledged: 'AWAITING_DECISION',
    dismissed: 'AWAITING_DECISION',
    released: 'RELEASED',
    rejected: 'REJECTED',
    quarantinedOpen: 'QUARANTINED',
    rejectedOpen: 'REJECTED',
    releasedLater: 'RELEASED',
    quarantined: 'QUARANTINED',
  };

  it('the record reply carries the computed state', async () => {
    const got: Record<string, string | undefined> = {};
    for (const key of Object.keys(expected)) {
      got[key] = (await record(manager, ids[key]!)).review_state;
    }
    expect(got).toEqual(expected);
  });

  it('the All Records list carries it and filters by each state and by NEEDS_REVIEW', async () => {
    const all = await list(manager, '');
    const states = new Map(
      z
        .array(ZRecord)
        .parse((await manager.get(`${XT1}/records/?page_size=1000`)).json())
        .map((r) => [r.id, r.review_state]),
    );
    expect(all.ids.length).toBe(Object.keys(expected).length);
    for (const [key, state] of Object.entries(expected)) expect(states.get(ids[key]!)).toBe(state);

    const keysIn = (...states: string[]) =>
      Object.entries(expected)
        .filter(([, s]) => states.includes(s))
        .map(([k]) => ids[k]!)
        .sort();
    for (const state of [
      'AWAITING_ACKNOWLEDGEMENT',
      'AWAITING_DECISION',
      'RELEASED',
      'QUARANTINED',
      'REJECTED',
    ]) {
      const got = await list(manager, `review_state=${state}`);
      expect([...got.ids].sort(), state).toEqual(keysIn(state));
      expect(got.total).toBe(got.ids.length);
    }
    // The dashboard's count: one row asked for, the total in x-total-count.
    const needs = await list(manager, 'review_state=NEEDS_REVIEW', 1);
    expect(needs.ids).toHaveLength(1);
    expect(needs.total).toBe(keysIn('AWAITING_ACKNOWLEDGEMENT', 'AWAITING_DECISION').length);
  });

  it('the review-state filter of a decision lists what the decision filter lists', async () => {
    for (const decision of ['RELEASED', 'QUARANTINED', 'REJECTED']) {
      const byState = await list(manager, `review_state=${decision}`);
      const byDecision = await list(manager, `disposition=${decision}`);
      expect([...byState.ids].sort(), decision).toEqual([...byDecision.ids].sort());
      expect(byState.ids.length, decision).toBeGreaterThan(0);
    }
    // A quarantined record whose alarms are still open is not awaiting acknowledgement.
    const awaiting = await list(manager, 'review_state=AWAITING_ACKNOWLEDGEMENT');
    expect(awaiting.ids).not.toContain(ids.quarantinedOpen);
    expect((await list(manager, 'review_state=NEEDS_REVIEW')).ids).not.toContain(
      ids.quarantinedOpen,
    );
  });

  it('refuses an unknown state with 400 naming review_state', async () => {
    const res = await manager.get(`${XT1}/records/?review_state=PENDING`);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields ?? {})).toContain('review_state');
  });

  it('another organization sees none of these records in any state, nor reads one', async () => {
    for (const state of ['NEEDS_REVIEW', 'AWAITING_DECISION', 'RELEASED']) {
      expect((await list(stranger, `review_state=${state}`)).ids).toEqual([]);
    }
    const res = await stranger.get(`${XT1}/record/?record_id=${ids.open}`);
    expect(res.statusCode).toBe(404);
  });
});

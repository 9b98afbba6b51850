import { unacknowledgedReleaseMessage, ZExcursionAlarm, ZNotification } from '@coldtrace/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/helpers';
import { alarmsOf, deviceUser, type DeviceUser } from '../../../test/shipment-factories';
import { startedRtRecord } from '../../../test/rt-factories';
import { alarmSignatures, notifications } from '../../db/schema-notifications';
import { auditEvents } from '../../db/schema-audit';
import { ALARM_RAISED_JOB } from '../../jobs/catalogue';

/**
 * Issue 35 item 4: a late packet joins two runs of an rt record into one; the
 * alarm of the run it absorbed is closed as superseded by the alarm that holds
 * the run now (docs/decisions/alarm-lifecycle.md, "Merged").
 */

const RT = '/api/devices/rt/';
const XT1 = '/api/devices/xt1';

describe('an alarm absorbed by a grown run (issue 35 item 4) [FEAT-ALARM-MERGE, RULE-ALARM-1]', () => {
  let t: TestApp;
  let a: DeviceUser;
  beforeAll(async () => {
    t = await createTestApp();
    a = await deviceUser(t);
  });
  afterAll(() => t.close());

  /** A started rt record (thresholds 2-8 °C, one point a minute). */
  const rtRecord = () => startedRtRecord(a, 'MERGE', 600);

  async function packet(sn: string, start: number, offset: number, temps: number[]) {
    const res = await a.device.post(`${RT}packets/`, {
      tag_id: sn,
      start_time_seconds: start,
      temperatures_offset_index: offset,
      temps,
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.jobs.waitForIdle([ALARM_RAISED_JOB]);
  }

  async function bellIds(recordId: number) {
    const res = await a.client.get(`${XT1}/notifications/?page_size=100&record_id=${recordId}`);
    expect(res.statusCode, res.body).toBe(200);
    return z
      .array(ZNotification)
      .parse(res.json())
      .map((n) => n.id);
  }

  async function apiAlarms(recordId: number) {
    const res = await a.client.get(
      `${XT1}/alarms/?record_id=${recordId}&include_acknowledged=true&include_dismissed=true`,
    );
    expect(res.statusCode, res.body).toBe(200);
    return z.array(ZExcursionAlarm).parse(res.json());
  }

  const release = (recordId: number) =>
    a.client.post(`${XT1}/records/disposition/`, {
      record_id: String(recordId),
      decision: 'RELEASED',
      comment: 'Checked',
      password: TEST_PASSWORD,
    });

  it('a late packet filling the gap between two runs: the later alarm is superseded by the earlier', async () => {
    const { sn, start, recordId } = await rtRecord();
    // Two runs above 8 °C (points 2-4 and 8-10), points 5-7 not received yet.
    await packet(sn, start, 0, [5, 5, 9, 9, 9]);
    await packet(sn, start, 8, [9, 9, 9, 5, 5]);
    const before = await alarmsOf(t.db, recordId);
    expect(before.map((r) => [r.firstPointIdx, r.lastPointIdx, r.state])).toEqual([
      [2, 4, 'OPEN'],
      [8, 10, 'OPEN'],
    ]);
    const [earlier, later] = before;
    expect((await bellIds(recordId)).sort()).toEqual([String(earlier!.id), String(later!.id)]);

    // The late packet: points 5-7 above too, one run 2-10.
    await packet(sn, start, 5, [9, 9, 9]);
    const after = await alarmsOf(t.db, recordId);
    expect(after).toHaveLength(2);
    expect(after.find((r) => r.id === earlier!.id)).toMatchObject({
      state: 'OPEN',
      firstPointIdx: 2,
      lastPointIdx: 10,
      supersededBy: null,
    });
    expect(after.find((r) => r.id === later!.id)).toMatchObject({
      state: 'CLOSED',
      closeCause: 'MERGED',
      closedByUserId: null,
      supersededBy: earlier!.id,
    });

    // The API says so; the closing is audited (System, naming the survivor).
    const listed = await apiAlarms(recordId);
    expect(listed.find((x) => x.id === String(later!.id))).toMatchObject({
      state: 'CLOSED',
      close_cause: 'MERGED',
      superseded_by: String(earlier!.id),
    });
    expect(listed.find((x) => x.id === String(earlier!.id))).not.toHaveProperty('superseded_by');
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'alarm.close'), eq(auditEvents.entityId, String(later!.id))),
      );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorName: 'System', oldValue: 'OPEN', newValue: 'CLOSED' });
    expect(audit[0]!.reason).toContain(`alarm ${earlier!.id}`);

    // Its bell item is gone (the row stays, dismissed); the survivor's stays.
    expect(await bellIds(recordId)).toEqual([String(earlier!.id)]);
    const rows = await t.db
      .select()
      .from(notifications)
      .where(eq(notifications.alarmId, later!.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((n) => n.dismissedAt !== null)).toBe(true);

    // One alarm awaits a signature: the release refusal counts one, the review state awaits it.
    const refused = await release(recordId);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(unacknowledgedReleaseMessage(1));
    const record = await a.client.get(`${XT1}/record/?record_id=${recordId}`);
    expect(record.json().review_state).toBe('AWAITING_ACKNOWLEDGEMENT');

    // Acknowledging the survivor covers the superseded alarm: the same signature, each recorded.
    const ack = await a.client.post(`${XT1}/alarm-acknowledge/`, {
      alarm_ids: [String(earlier!.id)],
      comment: 'One excursion, checked',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
    });
    expect(ack.statusCode, ack.body).toBe(200);
    const covered = z.array(ZExcursionAlarm).parse(ack.json());
    expect(covered.map((x) => [x.id, x.acknowledged]).sort()).toEqual([
      [String(earlier!.id), true],
      [String(later!.id), true],
    ]);
    const signatures = await t.db
      .select()
      .from(alarmSignatures)
      .where(inArray(alarmSignatures.alarmId, [earlier!.id, later!.id]));
    expect(signatures.map((s) => [s.alarmId, s.purpose, s.comment]).sort()).toEqual(
      [
        [earlier!.id, 'ACKNOWLEDGE', 'One excursion, checked'],
        [later!.id, 'ACKNOWLEDGE', 'One excursion, checked'],
      ].sort(),
    );
    const acks = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'alarm.acknowledge'),
          inArray(auditEvents.entityId, [String(earlier!.id), String(later!.id)]),
        ),
      );
    expect(acks).toHaveLength(2);
    const afterAck = await a.client.get(`${XT1}/record/?record_id=${recordId}`);
    expect(afterAck.json().review_state).not.toBe('AWAITING_ACKNOWLEDGEMENT');
  });

  it('a late packet before the first run: both alarms are superseded by the new one', async () => {
    const { sn, start, recordId } = await rtRecord();
    // Runs at points 3-4 and 6-7; points 0-2 and 5 come late, above 8 °C: one run 0-7.
    await packet(sn, start, 3, [9, 9]);
    await packet(sn, start, 6, [9, 9, 5]);
    const [first, second] = await alarmsOf(t.db, recordId);
    await packet(sn, start, 0, [9, 9, 9]);
    await packet(sn, start, 5, [9]);
    const after = await alarmsOf(t.db, recordId);
    const open = after.filter((r) => r.state === 'OPEN');
    expect(open.map((r) => [r.firstPointIdx, r.lastPointIdx])).toEqual([[0, 7]]);
    const survivor = open[0]!.id;
    // The first merge (points 0-2) absorbed the first run into the new alarm 0-4;
    // the second (point 5) the other run into it: each names the alarm it went into.
    const superseded = after.filter((r) => r.closeCause === 'MERGED');
    expect(superseded.map((r) => r.id).sort()).toEqual([first!.id, second!.id].sort());
    expect(superseded.every((r) => r.supersededBy === survivor)).toBe(true);
    expect(await bellIds(recordId)).toEqual([String(survivor)]);
    const refused = await release(recordId);
    expect(refused.json().message).toBe(unacknowledgedReleaseMessage(1));
  });
});

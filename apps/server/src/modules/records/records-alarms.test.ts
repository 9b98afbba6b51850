import {
  MAX_TEMPERATURE_RECORD_IDS,
  ZExcursionAlarm,
  ZRecordLocations,
  ZScan,
  ZTripTemperatures,
} from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { roles } from '../../db/schema';
import { createTestApp, type RoleName, type TestApp, type TestClient } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { XT1, AGG, ids, total, seed, type World } from './records.fixtures';

/** The records read side (alarms, scans, aggregates and access) on the world of records.fixtures.ts. */
describe('record queries: alarms, scans, aggregates and access [SPEC-7.2, SPEC-7.3, RULE-ORG-1]', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await seed(t, recordFactories(t.db));
  });
  afterAll(() => t.close());

  const get = (url: string, client: TestClient = w.admin) => client.get(url);

  describe('GET alarms/', () => {
    const alarmIds = async (query: string) => {
      const res = await get(`${XT1}/alarms/${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return ids(z.array(ZExcursionAlarm).parse(res.json())).sort();
    };

    it('lists closed alarms; hides acknowledged and dismissed ones unless asked', async () => {
      const a = w.alarmsR3;
      const r3 = `record_id=${w.r3.id}`;
      expect(await alarmIds(`?${r3}`)).toEqual(ids([a.open, a.cumulative, a.resolved]).sort());
      expect(await alarmIds(`?${r3}&include_closed=false`)).toEqual(
        ids([a.open, a.cumulative]).sort(),
      );
      expect(await alarmIds(`?${r3}&include_acknowledged=true`)).toEqual(
        ids([a.open, a.cumulative, a.resolved, a.acknowledged]).sort(),
      );
      expect(await alarmIds(`?${r3}&include_acknowledged=true&include_dismissed=1`)).toEqual(
        ids([a.open, a.cumulative, a.resolved, a.acknowledged, a.dismissed]).sort(),
      );
      // Without record_id: every alarm of the organization (r1's is dismissed).
      expect(await alarmIds('')).toEqual(ids([a.open, a.cumulative, a.resolved]).sort());
      expect((await alarmIds('?include_dismissed=true')).length).toBe(5);
    });

    it('answers each alarm with its kind, newest first', async () => {
      const res = await get(`${XT1}/alarms/?record_id=${w.r3.id}`);
      const body = z.array(ZExcursionAlarm).parse(res.json());
      expect(body.map((x) => [x.kind, x.state])).toEqual([
        ['excursion', 'CLOSED'],
        ['excursion', 'OPEN'],
        ['cumulative', 'OPEN'],
      ]);
      // A closed alarm says when, who (the system here), the cause and the reason.
      expect(body[0]).toMatchObject({
        id: String(w.alarmsR3.resolved.id),
        state: 'CLOSED',
        resolved: true,
        closed_by: null,
        close_cause: 'TRIP_WINDOW',
        close_reason: 'Outside the trip window',
      });
      expect(body[0]!.closed_at).toBe('2025-04-02T08:00:00.000Z');
      const open = w.alarmsR3.open;
      expect(body[1]).toEqual({
        id: String(open.id),
        record_id: String(w.r3.id),
        tag_id: w.tagA2.id,
        created: open.created.toISOString(),
        tag_serial_number: w.tagA2.serialNumber,
        above_or_below: 'ABOVE',
        first_point_idx: 10,
        last_point_idx: 12,
        degree_minutes: 12,
        start_time: '2025-04-01T05:00:00.000Z',
        end_time: open.endTime!.toISOString(),
        duration: 180,
        high_threshold: null,
        low_threshold: null,
        highest_recorded_temperature: 11,
        lowest_recorded_temperature: 9,
        acknowledged: false,
        dismissed: false,
        kind: 'excursion',
        state: 'OPEN',
        resolved: false,
      });
    });

    it("answers 404 for another organization's record, 400 for a bad flag", async () => {
      let res = await get(`${XT1}/alarms/?record_id=${w.rB.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().fields).toHaveProperty('record_id');
      res = await get(`${XT1}/alarms/?include_dismissed=sure`);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['include_dismissed']);
    });
  });

  describe('GET scans/', () => {
    it("pages the organization's scans, newest first", async () => {
      let res = await get(`${XT1}/scans/?page_size=4`, w.viewer);
      expect(res.statusCode).toBe(200);
      expect(total(res)).toBe(6);
      const body = z.array(ZScan).parse(res.json());
      expect(ids(body)).toEqual(
        [w.scansR2[1]!, w.scansR2[2]!, w.scansR2[0]!, w.scansR1[1]!].map((s) => String(s.id)),
      );
      res = await get(`${XT1}/scans/?page_size=4&page_number=2`);
      expect(res.json()).toHaveLength(2);
      expect(res.json()[1].record).toBeNull();
      res = await get(`${XT1}/scans/?page_number=0`);
      expect(res.statusCode).toBe(400);
    });
  });

  describe('GET aggregate/locations/', () => {
    it('answers the known positions of each record, oldest first, in the order asked', async () => {
      const res = await get(`${AGG}/locations/?record_ids=${w.r2.id},${w.r1.id}`, w.viewer);
      expect(res.statusCode).toBe(200);
      expect(total(res)).toBe(2);
      expect(z.array(ZRecordLocations).parse(res.json())).toEqual([
        {
          record_id: String(w.r2.id),
          locations: [
            { latitude: 59.5, longitude: 9, timestamp: '2025-03-05T11:00:00.000Z' },
            { latitude: 60, longitude: 10, timestamp: '2025-03-05T12:00:00.000Z' },
          ],
        },
        { record_id: String(w.r1.id), locations: [] },
      ]);
    });

    it('orders and pages the records', async () => {
      let res = await get(
        `${AGG}/locations/?record_ids=${w.r2.id},${w.r1.id},${w.r3.id}&order_by=created&page_size=2`,
      );
      expect(total(res)).toBe(3);
      expect(res.json().map((x: { record_id: string }) => x.record_id)).toEqual(
        [w.r1.id, w.r2.id].map(String),
      );
      res = await get(
        `${AGG}/locations/?record_ids=${w.r2.id},${w.r1.id},${w.r3.id}&order_by=created&page_size=2&page_number=2`,
      );
      expect(res.json().map((x: { record_id: string }) => x.record_id)).toEqual([String(w.r3.id)]);
      res = await get(`${AGG}/locations/?record_ids=${w.r1.id}&order_by=latitude`);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['order_by']);
    });

    it("answers 404 for another organization's record", async () => {
      const res = await get(`${AGG}/locations/?record_ids=${w.r2.id},${w.rB.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('"latitude"');
    });
  });

  describe('GET aggregate/record-temperatures/', () => {
    it('answers the series with thresholds and trip times, gaps left out', async () => {
      const res = await get(
        `${AGG}/record-temperatures/?record_ids=${w.r2.id},${w.r1.id}`,
        w.viewer,
      );
      expect(res.statusCode).toBe(200);
      const body = z.array(ZTripTemperatures).parse(res.json());
      // Point i is at start_time_seconds + start_delay + i * interval (2025-03-05T09:00 + 60 s + i * 300 s).
      expect(body[0]).toEqual({
        record_id: String(w.r2.id),
        high_threshold: 8,
        low_threshold: 2,
        cumulative_high_threshold: 10,
        cumulative_low_threshold: null,
        trip_begin_time: '2025-03-05T10:00:00.000Z',
        trip_end_time: null,
        start_time: '2025-03-05T09:00:00.000Z',
        temperatures: [
          { temperature: 4, timestamp: '2025-03-05T09:01:00.000Z', index: 0 },
          { temperature: 5.5, timestamp: '2025-03-05T09:06:00.000Z', index: 1 },
          { temperature: 9.25, timestamp: '2025-03-05T09:16:00.000Z', index: 3 },
          { temperature: 3, timestamp: '2025-03-05T09:31:00.000Z', index: 6 },
        ],
      });
      expect(body[1]).toMatchObject({ record_id: String(w.r1.id), temperatures: [] });
    });

    it(`refuses more than ${MAX_TEMPERATURE_RECORD_IDS} ids, and another organization's`, async () => {
      const many = Array.from({ length: MAX_TEMPERATURE_RECORD_IDS + 1 }, (_, i) => i + 1);
      let res = await get(`${AGG}/record-temperatures/?record_ids=${many.join(',')}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.record_ids).toContain('at most 50');
      res = await get(`${AGG}/record-temperatures/?record_ids=${w.rB.id}`);
      expect(res.statusCode).toBe(404);
      res = await get(`${AGG}/record-temperatures/`);
      expect(res.statusCode).toBe(400);
    });
  });

  describe('access', () => {
    const everyUrl = () => [
      `${XT1}/`,
      `${XT1}/records/`,
      `${XT1}/record/?record_id=${w.r1.id}`,
      `${XT1}/record-ids/`,
      `${XT1}/latest-record/?tag_id_or_serial_number=${w.tagA1.serialNumber}`,
      `${XT1}/records/actions/?record_ids=${w.r1.id}`,
      `${XT1}/records/scans/?record_ids=${w.r1.id}`,
      `${XT1}/records/statistics/summary/`,
      `${XT1}/records/statistics/filtered/?start_date=2025-01-01&end_date=2025-12-31`,
      `${XT1}/alarms/`,
      `${XT1}/scans/`,
      `${AGG}/locations/?record_ids=${w.r1.id}`,
      `${AGG}/record-temperatures/?record_ids=${w.r1.id}`,
    ];

    it('a Viewer reads every call but details/', async () => {
      for (const url of everyUrl()) {
        expect((await get(url, w.viewer)).statusCode, url).toBe(200);
      }
    });

    it('accepts a user token instead of the session (auth kind session)', async () => {
      const issued = await w.viewer.post('/api/auth/tokens/', { name: 'records test' });
      expect(issued.statusCode, issued.body).toBe(200);
      const headers = { authorization: `Token ${issued.json().token as string}` };
      const res = await t.client().get(`${XT1}/records/?latest=true`, headers);
      expect(res.statusCode, res.body).toBe(200);
      expect(ids(res.json()).sort()).toEqual([String(w.r2.id), String(w.r3.id)].sort());
      const other = await t.client().get(`${XT1}/record/?record_id=${w.rB.id}`, headers);
      expect(other.statusCode).toBe(404);
    });

    it('answers 401 without a session and 403 without sysDataRead', async () => {
      await t.db.insert(roles).values({
        name: 'Notified',
        permissionNames: ['notifyReceive'],
        organizationId: w.orgA.id,
      });
      const { client } = await t.signIn({ role: 'Notified' as RoleName, orgs: [w.orgA] });
      for (const url of everyUrl()) {
        expect((await t.client().get(url)).statusCode, url).toBe(401);
        const res = await client.get(url);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().code).toBe('FORBIDDEN');
      }
    });
  });
});

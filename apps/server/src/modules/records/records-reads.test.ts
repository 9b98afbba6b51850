import { ZRecord, ZRecordAction, ZRecordStatistics, ZScan } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp, type TestClient } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { XT1, ids, seed, type World } from './records.fixtures';

/** The records read side (extreme values, one record, record ids, latest record, actions, scans of records, statistics) on the world of records.fixtures.ts. */
describe('record queries: extreme values, one record, record ids, latest record, actions, scans of records, statistics [SPEC-7.2, RULE-SUMMARY-1]', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await seed(t, recordFactories(t.db));
  });
  afterAll(() => t.close());

  const get = (url: string, client: TestClient = w.admin) => client.get(url);

  describe('extreme values', () => {
    it('answers the ends of the date range and huge numbers without a 500', async () => {
      const urls = [
        `${XT1}/records/statistics/filtered/?start_date=9999-12-31&end_date=9999-12-31`,
        `${XT1}/records/statistics/filtered/?start_date=0001-01-01T00:00%2B01:00&end_date=0001-01-01`,
        `${XT1}/records/?filter=${encodeURIComponent('created__after=9999-12-31')}`,
        `${XT1}/records/?filter=${encodeURIComponent('created__is=0001-01-01T00:30+01:00')}`,
        `${XT1}/records/?filter=${encodeURIComponent('high_threshold__gt=-1e308|number_of_points__eq=1e300')}`,
        `${XT1}/records/?filter=${encodeURIComponent('id__gt=9007199254740991')}`,
        `${XT1}/records/?page_number=1000000&page_size=1000`,
        `${XT1}/latest-record/?tag_id_or_serial_number=999999999999999`,
      ];
      for (const url of urls) {
        const res = await get(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(
          url.includes('latest-record') ? 404 : 200,
        );
      }
    });
  });

  describe('GET record/', () => {
    it('answers one record of the organization', async () => {
      const res = await get(`${XT1}/record/?record_id=${w.r1.id}`, w.viewer);
      expect(res.statusCode).toBe(200);
      const body = ZRecord.parse(res.json());
      expect(body.id).toBe(String(w.r1.id));
      expect(body.scans).toEqual(w.scansR1.map((s) => String(s.id)));
      expect(body.shipper_name_address).toBeNull();
    });

    it("answers 404 for another organization's record or a malformed id, 400 when absent", async () => {
      for (const id of [String(w.rB.id), 'abc', '0', '99999999999999999999', '-1']) {
        const res = await get(`${XT1}/record/?record_id=${encodeURIComponent(id)}`);
        expect(res.statusCode, id).toBe(404);
        expect(res.json().fields).toHaveProperty('record_id');
        expect(res.body).not.toContain('ACME');
      }
      const res = await get(`${XT1}/record/`);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toHaveProperty('record_id');
    });
  });

  describe('GET record-ids/', () => {
    it('answers the references of the organization, newest first', async () => {
      const res = await get(`${XT1}/record-ids/`);
      expect(res.json()).toEqual(
        [w.r3, w.r2, w.r1].map((r) => ({
          record_id: String(r.id),
          tag_id: String(r.tagId),
          tag_serial_number: r.tagSerialNumber,
        })),
      );
    });
  });

  describe('GET latest-record/', () => {
    it('finds the latest record by serial number (any case) or tag id', async () => {
      for (const key of [
        w.tagA1.serialNumber,
        w.tagA1.serialNumber.toLowerCase(),
        ` ${w.tagA1.serialNumber} `,
        String(w.tagA1.id),
      ]) {
        const res = await get(
          `${XT1}/latest-record/?tag_id_or_serial_number=${encodeURIComponent(key)}`,
        );
        expect(res.statusCode, key).toBe(200);
        expect(res.json().id).toBe(String(w.r2.id));
      }
    });

    it("answers 404 for a tag without records or another organization's tag, 400 when absent", async () => {
      for (const key of [w.tagA3.serialNumber, w.tagB.serialNumber, 'NO-SUCH-TAG']) {
        const res = await get(`${XT1}/latest-record/?tag_id_or_serial_number=${key}`);
        expect(res.statusCode, key).toBe(404);
        expect(res.json().fields).toHaveProperty('tag_id_or_serial_number');
      }
      for (const query of ['', '?tag_id_or_serial_number=', '?tag_id_or_serial_number=%20']) {
        const res = await get(`${XT1}/latest-record/${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().fields).toHaveProperty('tag_id_or_serial_number');
      }
    });
  });

  describe('GET records/actions/', () => {
    it('answers the actions of the records, oldest first, with their display names', async () => {
      const res = await get(`${XT1}/records/actions/?record_ids=${w.r1.id},${w.r2.id}`, w.viewer);
      expect(res.statusCode).toBe(200);
      const body = z.array(ZRecordAction).parse(res.json());
      expect(body.map((a) => [a.record_id, a.action_type, a.action_type_display])).toEqual([
        [String(w.r1.id), 'start', 'Start'],
        [String(w.r1.id), 'stop-action', 'Stop'],
        [String(w.r2.id), 'create_shipment', 'Create shipment'],
      ]);
      expect(body[0]).toMatchObject({ latitude: -91, longitude: -181, created_by_user: null });
      expect(body[1]).toMatchObject({
        tag_id: String(w.tagA1.id),
        tag_serial_number: w.tagA1.serialNumber,
        latitude: 50.1,
        longitude: 8.6,
        timestamp: '2025-03-01T12:00:00.000Z',
        created_by_user: w.adminUser.username,
        tag_type: 'XT1_NFC_MU',
        mobile_device_type: 'IOS',
      });
      const repeated = await get(
        `${XT1}/records/actions/?record_ids=${w.r1.id}&record_ids=${w.r2.id}`,
      );
      expect(repeated.json()).toEqual(res.json());
    });

    it("answers 404 naming record_ids when one is another organization's", async () => {
      for (const list of [`${w.r1.id},${w.rB.id}`, `${w.r1.id},x`]) {
        const res = await get(`${XT1}/records/actions/?record_ids=${list}`);
        expect(res.statusCode, list).toBe(404);
        expect(res.json().fields.record_ids).toMatch(/not found/);
      }
      const tooMany = Array.from({ length: 1001 }, (_, i) => i + 1).join(',');
      for (const query of ['', '?record_ids=', '?record_ids=,,', `?record_ids=${tooMany}`]) {
        const res = await get(`${XT1}/records/actions/${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(Object.keys(res.json().fields)).toEqual(['record_ids']);
      }
    });
  });

  describe('GET records/scans/', () => {
    it('answers the scans of the records, newest first; latest=true one per record', async () => {
      let res = await get(`${XT1}/records/scans/?record_ids=${w.r1.id},${w.r2.id}`);
      expect(res.statusCode).toBe(200);
      const body = z.array(ZScan).parse(res.json());
      const byTime = [...w.scansR1, ...w.scansR2].sort(
        (a, b) => b.timestamp.getTime() - a.timestamp.getTime(),
      );
      expect(ids(body)).toEqual(ids(byTime));
      const android = body.find((s) => s.id === String(w.scansR2[1]!.id))!;
      expect(android).toMatchObject({
        record: String(w.r2.id),
        tag_id: String(w.tagA1.id),
        timestamp: '2025-03-06T07:00:00.000Z',
        latitude: 59.91,
        longitude: 10.75,
        mobile_device_type: 'ANDROID',
        mobile_app_version: '3.2.1',
        start_time: '2025-03-05T09:00:00.000Z',
        status: 'OK',
      });
      const sentinel = body.find((s) => s.id === String(w.scansR1[1]!.id))!;
      expect([sentinel.latitude, sentinel.longitude]).toEqual([null, null]);
      expect(body.find((s) => s.id === String(w.scansR2[0]!.id))!.created_by_user).toBe(
        w.adminUser.username,
      );

      res = await get(`${XT1}/records/scans/?record_ids=${w.r1.id},${w.r2.id}&latest=true`);
      expect(ids(res.json())).toEqual([w.scansR2[1]!.id, w.scansR1[1]!.id].map(String));
    });

    it('refuses another organization and bad flags', async () => {
      let res = await get(`${XT1}/records/scans/?record_ids=${w.rB.id}`);
      expect(res.statusCode).toBe(404);
      res = await get(`${XT1}/records/scans/?record_ids=${w.r1.id}&latest=perhaps`);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['latest']);
    });
  });

  describe('GET records/statistics/', () => {
    it('summary: the counts of the organization, as counted by hand', async () => {
      const res = await get(`${XT1}/records/statistics/summary/`, w.viewer);
      expect(res.statusCode).toBe(200);
      expect(ZRecordStatistics.parse(res.json())).toEqual({
        num_records: 3,
        // r3 only: r1's alarm is dismissed, so its computed status is OK.
        num_alarm_records: 1,
        num_no_alarm_records: 2,
        num_active_records: 1,
        num_stopped_records: 2,
        // 2 + 3 scans of records, 1 without a record.
        scans_made: 6,
        running_tags: 1,
        idle_tags: 2,
      });
      const b = await get(`${XT1}/records/statistics/summary/`, w.bClient);
      expect(b.json()).toMatchObject({ num_records: 1, scans_made: 1, running_tags: 1 });
    });

    it('filtered: the same over the records created in the range (end date inclusive)', async () => {
      let res = await get(
        `${XT1}/records/statistics/filtered/?start_date=2025-03-01&end_date=2025-03-05`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        num_records: 2,
        num_alarm_records: 0,
        num_no_alarm_records: 2,
        num_active_records: 1,
        num_stopped_records: 1,
        scans_made: 5,
        running_tags: 1,
        idle_tags: 0,
        num_alarm_started_records: 0,
      });
      res = await get(
        `${XT1}/records/statistics/filtered/?start_date=2025-03-02&end_date=2025-03-04`,
      );
      expect(res.json()).toEqual({
        num_records: 0,
        num_alarm_records: 0,
        num_no_alarm_records: 0,
        num_active_records: 0,
        num_stopped_records: 0,
        scans_made: 0,
        running_tags: 0,
        idle_tags: 0,
        num_alarm_started_records: 0,
      });
      res = await get(
        `${XT1}/records/statistics/filtered/?start_date=2025-03-01T10:00:00Z&end_date=2025-04-01T00:00`,
      );
      expect(res.json()).toMatchObject({ num_records: 3, num_alarm_records: 1, idle_tags: 1 });
      res = await get(
        `${XT1}/records/statistics/filtered/?start_date=2025-03-05T12:00:00%2B02:00&end_date=2025-03-05`,
      );
      expect(res.json()).toMatchObject({ num_records: 0 });
    });

    it('filtered: refuses malformed or reversed dates naming the field', async () => {
      const cases: [string, string][] = [
        ['start_date=2025-03-01', 'end_date'],
        ['end_date=2025-03-01', 'start_date'],
        ['start_date=yesterday&end_date=2025-03-01', 'start_date'],
        ['start_date=2025-13-01&end_date=2025-03-01', 'start_date'],
        ['start_date=2025-03-01&end_date=2025-02-30', 'end_date'],
        ['start_date=2025-03-01&end_date=2025-03-01T25:00', 'end_date'],
        ['start_date=2025-03-02&end_date=2025-03-01', 'end_date'],
        ['start_date=2025-03-01T00:00:00%2B99:00&end_date=2025-03-02', 'start_date'],
      ];
      for (const [query, field] of cases) {
        const res = await get(`${XT1}/records/statistics/filtered/?${query}`);
        expect(res.statusCode, `${query} ${res.body}`).toBe(400);
        expect(Object.keys(res.json().fields), query).toEqual([field]);
      }
    });
  });
});

import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import {
  createTravelLocation,
  deviceUser,
  epoch,
  iso,
  recordOf,
  serial,
  tagBySerial,
  xt1Body,
} from '../../../test/shipment-factories';
import { roles } from '../../db/schema';
import { readSeries } from '../../kernel/series-store';

const XT1 = '/api/devices/xt1/';
const HOUR = 3600;

/** xt1 calls that must refuse: bad input, another organization's ids, missing permissions, CSRF (the uploads and actions themselves: xt1.test.ts). */
describe('xt1 uploads and actions: refusals [SPEC-7.2, FEAT-INPUT-SAFETY]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('bad input answers 400 naming the field, never 500', async () => {
    const { client } = await deviceUser(t, { role: 'Administrator' });
    const sn = serial();
    const start = epoch(new Date()) - HOUR;
    const base = xt1Body(sn, { start_time_seconds: start });
    const cases: [string, Record<string, unknown>, string][] = [
      ['scans/', { ...base, high_threshold: 'eight' }, 'high_threshold'],
      ['scans/', { ...base, tag_type: 'XT9' }, 'tag_type'],
      ['scans/', { ...base, battery_health: 'EMPTY' }, 'battery_health'],
      ['scans/', { ...base, timestamp: undefined }, 'timestamp'],
      ['scans/', { ...base, tag_id: undefined }, 'tag_id'],
      ['scans/', { ...base, timestamp: 'yesterday' }, 'timestamp'],
      ['scans/', { ...base, timestamp: '1970-01-01T00:00:00Z' }, 'timestamp'],
      ['scans/', { ...base, timestamp: iso(epoch(new Date()) + 3 * 86_400) }, 'timestamp'],
      ['scans/', { ...base, temps: [1], temperatures_offset_index: 1e9 }, 'temps'],
      ['scans/', { ...base, temps: [1, 2], temperatures_offset_index: 99_999 }, 'temps'],
      ['scans/', { ...base, temps: new Array(100_001).fill(1) }, 'temps'],
      ['scans/', { ...base, temps: [1, 'x'] }, 'temps.1'],
      ['scans/', { ...base, temps: [1, 500] }, 'temps.1'],
      ['scans/', { ...base, temps: 5 }, 'temps'],
      ['scans/', { ...base, latitude: 500 }, 'latitude'],
      ['scans/', { ...base, longitude: -200 }, 'longitude'],
      ['scans/', { ...base, measurement_interval: 0 }, 'measurement_interval'],
      ['scans/', { ...base, measurement_interval: 86_401 }, 'measurement_interval'],
      ['scans/', { ...base, measurement_interval: 1.5 }, 'measurement_interval'],
      ['scans/', { ...base, start_delay: -1 }, 'start_delay'],
      ['scans/', { ...base, low_threshold: 9 }, 'low_threshold'],
      ['scans/', { ...base, cumulative_duration_high: '25:61:00' }, 'cumulative_duration_high'],
      ['scans/', { ...base, start_time_seconds: 1e12 }, 'start_time_seconds'],
      ['scans/', { ...base, record_id: 'abc' }, 'record_id'],
      ['start-action/', { ...base, start_time_seconds: undefined }, 'start_time_seconds'],
      ['stop-action/', { ...base, high_threshold: null }, 'high_threshold'],
      [
        'configure-action/',
        { ...base, num_consecutive_excursions: 0 },
        'num_consecutive_excursions',
      ],
      [
        'create-shipment-action/',
        { ...base, shipper_name_address_id: 'x' },
        'shipper_name_address_id',
      ],
      ['update-shipment-action/', { primary_reference: 'x' }, 'record_id'],
      ['update-shipment-action/', { record_id: '1', high_threshold: 'x' }, 'high_threshold'],
      ['records/trips/', { begin_time: iso(start) }, 'record_id'],
      ['records/trips/', { record_id: '1', begin_time: 'soon' }, 'begin_time'],
      [
        'records/trips/',
        { record_id: '1', begin_time: iso(start + 60), end_time: iso(start) },
        'end_time',
      ],
    ];
    for (const [path, payload, field] of cases) {
      const res = await client.post(`${XT1}${path}`, payload);
      expect(res.statusCode, `${path} ${field}: ${res.body}`).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), `${path} ${field}`).toContain(field);
    }
    const notJson = await client.request({
      method: 'POST',
      url: `${XT1}scans/`,
      payload: '{"tag_id":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.statusCode).toBe(400);
    expect(await tagBySerial(t.db, sn)).toBeUndefined();
  });

  it("another organization's record or travel location answers 404; its tag's serial number is another tag here", async () => {
    const a = await deviceUser(t, { role: 'Administrator' });
    const b = await deviceUser(t, { role: 'Administrator' });
    const sn = serial();
    const start = epoch(new Date()) - HOUR;
    const own = await a.client.post(
      `${XT1}start-action/`,
      xt1Body(sn, { start_time_seconds: start }),
    );
    expect(own.statusCode).toBe(200);
    const { record_id: recordId, tag_id: tagId } = own.json();
    const otherLocation = await createTravelLocation(t.db, b.org.id, {
      latitude: 1,
      longitude: 1,
    });

    const attempts: [string, unknown][] = [
      ['stop-action/', xt1Body(sn)],
      ['update-shipment-action/', { record_id: recordId, primary_reference: 'stolen' }],
      ['records/trips/', { record_id: recordId, begin_time: iso(start) }],
      ['update-shipment-action/', { tag_id: tagId, primary_reference: 'stolen' }],
    ];
    for (const [path, payload] of attempts) {
      const res = await b.client.post(`${XT1}${path}`, payload);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    // A scan of the serial number in B is B's own tag and record, never A's.
    const scanned = await b.client.post(
      `${XT1}scans/`,
      xt1Body(sn, { start_time_seconds: start, temps: [1], primary_reference: 'B' }),
    );
    expect(scanned.statusCode, scanned.body).toBe(200);
    expect(scanned.json().tag_id).not.toBe(tagId);
    expect(scanned.json().record_id).not.toBe(recordId);
    expect((await recordOf(t.db, scanned.json().record_id)).organizationId).toBe(b.org.id);
    expect((await tagBySerial(t.db, sn, a.org.id))!.id).toBe(Number(tagId));
    const foreignLocation = await a.client.post(`${XT1}update-shipment-action/`, {
      record_id: recordId,
      shipper_name_address_id: otherLocation,
    });
    expect(foreignLocation.statusCode).toBe(404);
    expect(foreignLocation.json().fields).toHaveProperty('shipper_name_address_id');
    expect(await readSeries(t.db, Number(recordId))).toEqual([]);
    expect(await recordOf(t.db, recordId)).toMatchObject({ primaryReference: '', active: true });
  });

  it('a missing permission answers 403; field permissions of the shipment edit', async () => {
    const viewer = await deviceUser(t, { role: 'Viewer' });
    const sn = serial();
    const body = xt1Body(sn, { start_time_seconds: epoch(new Date()) - HOUR });
    for (const path of [
      'scans/',
      'start-action/',
      'stop-action/',
      'configure-action/',
      'create-shipment-action/',
    ]) {
      const res = await viewer.client.post(`${XT1}${path}`, body);
      expect(res.statusCode, path).toBe(403);
    }
    expect(
      (await viewer.client.post(`${XT1}update-shipment-action/`, { record_id: '1' })).statusCode,
    ).toBe(403);
    expect((await viewer.client.post(`${XT1}records/trips/`, { record_id: '1' })).statusCode).toBe(
      403,
    );
    expect(await tagBySerial(t.db, sn)).toBeUndefined();

    // A role that may edit references but not thresholds.
    const org = viewer.org;
    const operator = await deviceUser(t, { role: 'Operator', orgs: [org] });
    const started = await operator.client.post(`${XT1}start-action/`, body);
    await t.db
      .update(roles)
      .set({ permissionNames: ['readerEditRef1'] })
      .where(and(eq(roles.organizationId, org.id), eq(roles.name, 'Viewer')));
    const limited = await viewer.client.post(`${XT1}update-shipment-action/`, {
      record_id: started.json().record_id,
      primary_reference: 'ok',
      high_threshold: 20,
    });
    expect(limited.statusCode).toBe(403);
    expect(limited.json().fields).toEqual({ high_threshold: 'Needs readerConfig' });
  });

  it('cookie sessions need the CSRF token; tokens do not', async () => {
    const { client, device } = await deviceUser(t, { role: 'Operator' });
    const body = xt1Body(serial(), { start_time_seconds: epoch(new Date()) - HOUR });
    const noCsrf = await client.request({
      method: 'POST',
      url: `${XT1}start-action/`,
      payload: body,
      csrf: false,
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().code).toBe('CSRF_FAILED');
    const withToken = await device.post(`${XT1}start-action/`, body);
    expect(withToken.statusCode, withToken.body).toBe(200);
    const anonymous = await t.client().post(`${XT1}scans/`, body);
    expect(anonymous.statusCode).toBe(401);
  });
});

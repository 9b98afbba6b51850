import { ZRecord, type TRecord } from '@coldtrace/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { startedRtRecord } from '../../../test/rt-factories';
import {
  deviceUser,
  epoch,
  iso,
  scannedShipment,
  serial,
  type DeviceUser,
} from '../../../test/shipment-factories';
import { records } from '../../db/schema-shipments';

const XT1 = '/api/devices/xt1/';
const RT = '/api/devices/rt/';
const NANOTAG = '/api/devices/nanotag/';

/** Issue 35 item 6: rt and nanotag records answer when their data last arrived. */
describe('Record.last_transmission [FEAT-LAST-TRANSMISSION]', () => {
  let t: TestApp;
  let user: DeviceUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await deviceUser(t);
  });
  afterAll(() => t.close());

  const record = async (id: number | string): Promise<TRecord> => {
    const res = await user.client.get(`${XT1}record/?record_id=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZRecord.parse(res.json());
  };
  const listed = async (id: number | string): Promise<TRecord> => {
    const res = await user.client.get(`${XT1}records/`);
    expect(res.statusCode, res.body).toBe(200);
    const row = (res.json() as unknown[])
      .map((r) => ZRecord.parse(r))
      .find((r) => r.id === String(id));
    expect(row, `record ${id} listed`).toBeDefined();
    return row!;
  };
  /** Both replies carry the same last transmission; answers it as epoch milliseconds (null: none). */
  const lastTransmission = async (id: number | string): Promise<number | null> => {
    const one = await record(id);
    expect(one).toHaveProperty('last_transmission');
    expect((await listed(id)).last_transmission).toBe(one.last_transmission);
    return one.last_transmission == null ? null : Date.parse(one.last_transmission);
  };

  it('rt: null until a packet arrives, set by it, kept by a replay, moved by a later packet', async () => {
    const { sn, start, recordId } = await startedRtRecord(user, 'LT-RT', 600);
    expect(await lastTransmission(recordId)).toBeNull();
    expect((await record(recordId)).last_scanned ?? null).toBeNull();

    const packet = (offset: number, temps: number[]) =>
      user.device.post(`${RT}packets/`, {
        tag_id: sn,
        start_time_seconds: start,
        temperatures_offset_index: offset,
        temps,
      });
    const before = Date.now();
    const first = await packet(0, [4, 5, 6]);
    expect(first.statusCode, first.body).toBe(200);
    const after = Date.now();
    const received = await lastTransmission(recordId);
    expect(received).toBeGreaterThanOrEqual(before - 1);
    expect(received).toBeLessThanOrEqual(after + 1);

    // The same points again bring nothing new: the last transmission stays.
    expect((await packet(0, [4, 5, 6])).statusCode).toBe(200);
    expect(await lastTransmission(recordId)).toBe(received);

    // Put the last data an hour back, so the next packet's move shows whatever the clock's resolution.
    const hourAgo = new Date(Date.now() - 3600_000);
    await t.db.update(records).set({ tempsLastUpdated: hourAgo }).where(eq(records.id, recordId));
    expect(await lastTransmission(recordId)).toBe(hourAgo.getTime());
    const beforeNext = Date.now();
    expect((await packet(3, [7])).statusCode).toBe(200);
    expect(await lastTransmission(recordId)).toBeGreaterThanOrEqual(beforeNext - 1);
  });

  it('nanotag: a frame sets it', async () => {
    const sn = serial('LT-NANO');
    const configured = await user.device.post(`${NANOTAG}configure-action/`, {
      tag_id: sn,
      record_period_seconds: 60,
      report_period_seconds: 600,
    });
    expect(configured.statusCode, configured.body).toBe(200);
    const recordId = configured.json().record_id as string;
    const firstSample = epoch(new Date()) - 3600;
    const first = await user.device.post(`${NANOTAG}first-sample-action/`, {
      tag_id: sn,
      first_sample_timestamp: iso(firstSample),
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(await lastTransmission(recordId)).toBeNull();

    const before = Date.now();
    const frame = await user.device.post(`${NANOTAG}packets/`, {
      tag_id: sn,
      temps: [4, 5],
      packet_end_time_seconds: firstSample + 60,
    });
    expect(frame.statusCode, frame.body).toBe(200);
    expect(await lastTransmission(recordId)).toBeGreaterThanOrEqual(before - 1);
  });

  it('xt1: no last transmission, the scan is its last scanned', async () => {
    const { recordId } = await scannedShipment(user.client, [4, 5, 6], 'LT-XT1');
    const one = await record(recordId);
    expect(one).not.toHaveProperty('last_transmission');
    expect(one.last_scanned).toEqual(expect.any(String));
    expect(await listed(recordId)).not.toHaveProperty('last_transmission');
  });
});

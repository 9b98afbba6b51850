import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import {
  deviceUser,
  epoch,
  iso,
  serial,
  tagBySerial,
  xt1Body,
  type TokenClient,
} from '../../../test/shipment-factories';

/**
 * Issue 11: settings an upload leaves out never overwrite configured ones
 * (num_consecutive_excursions defaulted to 1 on every rt start), and a run
 * ended by the tag's next run gets its stop time. Through HTTP.
 */
const RT = '/api/devices/rt/';
const XT1 = '/api/devices/xt1/';
const NANOTAG = '/api/devices/nanotag/';
const HOUR = 3600;

interface RecordReply {
  id: string;
  tag_status: string;
  stop_time: string | null;
  num_consecutive_excursions: number;
  status: string;
}

describe('settings left out of an upload, and runs ended by the next run [RULE-SERIES-1, SPEC-9.3]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function ok(device: TokenClient, path: string, body: Record<string, unknown>) {
    const res = await device.post(path, body);
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return res.json() as { record_id: string };
  }

  async function recordReply(device: TokenClient, id: string): Promise<RecordReply> {
    const res = await device.get(`${XT1}record/?record_id=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as RecordReply;
  }

  it('rt start- and configure-action without num_consecutive_excursions keep the configured value', async () => {
    const { device } = await deviceUser(t);
    const sn = serial('RT');
    const start = epoch(new Date()) - 2 * HOUR;
    await ok(device, `${RT}configure-action/`, {
      tag_id: sn,
      high_threshold: 8,
      low_threshold: 2,
      measurement_interval: 60,
      num_consecutive_excursions: 3,
    });
    const { record_id } = await ok(device, `${RT}start-action/`, {
      tag_id: sn,
      start_time_seconds: start,
    });
    expect((await recordReply(device, record_id)).num_consecutive_excursions).toBe(3);
    expect((await tagBySerial(t.db, sn))!.configuration.num_consecutive_excursions).toBe(3);

    // Two single points above 8, apart: with 3 consecutive points needed, no alarm.
    await ok(device, `${RT}packets/`, {
      tag_id: sn,
      start_time_seconds: start,
      temps: [4, 9, 4, 4, 9, 4],
    });
    expect((await recordReply(device, record_id)).status).toBe('OK');

    // A new configuration that only changes the interval keeps it too.
    await ok(device, `${RT}configure-action/`, { tag_id: sn, measurement_interval: 120 });
    expect((await tagBySerial(t.db, sn))!.configuration).toMatchObject({
      num_consecutive_excursions: 3,
      measurement_interval: 120,
      high_threshold: 8,
    });
    // ... and a value sent is taken.
    await ok(device, `${RT}configure-action/`, {
      tag_id: sn,
      measurement_interval: 120,
      num_consecutive_excursions: 2,
    });
    expect((await tagBySerial(t.db, sn))!.configuration.num_consecutive_excursions).toBe(2);
  });

  it('a tag never configured with a value starts with the default 1', async () => {
    const { device } = await deviceUser(t);
    const sn = serial('RT');
    const { record_id } = await ok(device, `${RT}start-action/`, {
      tag_id: sn,
      measurement_interval: 60,
      start_time_seconds: epoch(new Date()) - HOUR,
    });
    expect((await recordReply(device, record_id)).num_consecutive_excursions).toBe(1);
  });

  it('xt1 start-, configure-action and scans without it keep the configured value', async () => {
    const { device } = await deviceUser(t);
    const sn = serial('XT');
    const start = epoch(new Date()) - 2 * HOUR;
    await ok(device, `${XT1}configure-action/`, xt1Body(sn, { num_consecutive_excursions: 4 }));
    const { record_id } = await ok(
      device,
      `${XT1}start-action/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    expect((await recordReply(device, record_id)).num_consecutive_excursions).toBe(4);
    await ok(
      device,
      `${XT1}configure-action/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 60) }),
    );
    await ok(
      device,
      `${XT1}scans/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 600), temps: [4, 9, 4] }),
    );
    const reply = await recordReply(device, record_id);
    expect(reply).toMatchObject({ num_consecutive_excursions: 4, status: 'OK' });
    expect((await tagBySerial(t.db, sn))!.configuration.num_consecutive_excursions).toBe(4);
  });

  it("left out everywhere, the product's value applies when the shipment names the product", async () => {
    const { device, client } = await deviceUser(t);
    const product = `Vaccine ${serial('P')}`;
    const created = await client.post('/api/products/product-definitions/', {
      product_name: product,
      high_threshold: 8,
      low_threshold: 2,
      num_consecutive_excursions: 2,
    });
    expect(created.statusCode, created.body).toBe(200);

    // An rt tag configured without a value: the shipment's product brings 2.
    const sn = serial('RT');
    const start = epoch(new Date()) - HOUR;
    await ok(device, `${RT}configure-action/`, { tag_id: sn, measurement_interval: 60 });
    const { record_id } = await ok(device, `${RT}start-action/`, {
      tag_id: sn,
      start_time_seconds: start,
    });
    expect((await recordReply(device, record_id)).num_consecutive_excursions).toBe(1);
    await ok(
      device,
      `${XT1}create-shipment-action/`,
      xt1Body(sn, {
        tag_type: 'XT1_RT',
        record_id,
        product_designation: product,
        timestamp: iso(start + 60),
      }),
    );
    expect((await recordReply(device, record_id)).num_consecutive_excursions).toBe(2);

    // A tag configured with a value keeps it whatever the product says.
    const sn2 = serial('RT');
    await ok(device, `${RT}configure-action/`, {
      tag_id: sn2,
      measurement_interval: 60,
      num_consecutive_excursions: 5,
    });
    const second = await ok(device, `${RT}start-action/`, {
      tag_id: sn2,
      start_time_seconds: start,
    });
    await ok(
      device,
      `${XT1}create-shipment-action/`,
      xt1Body(sn2, {
        tag_type: 'XT1_RT',
        record_id: second.record_id,
        product_designation: product,
        timestamp: iso(start + 60),
      }),
    );
    expect((await recordReply(device, second.record_id)).num_consecutive_excursions).toBe(5);
  });

  it('nanotag settings and configure keep the value the tag reported', async () => {
    const { device } = await deviceUser(t);
    const sn = serial('NT');
    await ok(device, `${NANOTAG}generalized-data/`, {
      tag_id: sn,
      high_threshold: 8,
      low_threshold: 2,
      measurement_interval: 60,
      start_delay: 0,
      num_consecutive_excursions: 3,
    });
    await ok(device, `${NANOTAG}configure-action/`, { tag_id: sn, record_period_seconds: 120 });
    const { record_id } = await ok(device, `${NANOTAG}first-sample-action/`, {
      tag_id: sn,
      first_sample_timestamp: iso(epoch(new Date()) - HOUR),
    });
    expect((await recordReply(device, record_id)).num_consecutive_excursions).toBe(3);
  });

  it("a run ended by the tag's next run gets the next run's start as its stop time", async () => {
    const { device } = await deviceUser(t);
    const start = epoch(new Date()) - 3 * HOUR;
    const next = start + HOUR;

    // rt: a start-action of a new run (a new record).
    const sn = serial('RT');
    await ok(device, `${RT}configure-action/`, { tag_id: sn, measurement_interval: 60 });
    const first = await ok(device, `${RT}start-action/`, { tag_id: sn, start_time_seconds: start });
    await ok(device, `${RT}packets/`, { tag_id: sn, start_time_seconds: start, temps: [4, 5] });
    expect((await recordReply(device, first.record_id)).stop_time).toBeNull();
    const second = await ok(device, `${RT}packets/`, {
      tag_id: sn,
      start_time_seconds: next,
      temps: [4],
    });
    expect(second.record_id).not.toBe(first.record_id);
    expect(await recordReply(device, first.record_id)).toMatchObject({
      tag_status: 'XT1_IDLE',
      stop_time: iso(next),
    });
    expect((await recordReply(device, second.record_id)).stop_time).toBeNull();
    const list = await device.get(`${XT1}records/?search=${encodeURIComponent(sn)}`);
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json() as RecordReply[];
    expect(rows.find((r) => r.id === first.record_id)?.stop_time).toBe(iso(next));

    // xt1: a pending record that starts (configure, then start) ends the running one.
    const xt = serial('XT');
    const run1 = await ok(
      device,
      `${XT1}start-action/`,
      xt1Body(xt, { start_time_seconds: start, timestamp: iso(start) }),
    );
    await ok(device, `${XT1}configure-action/`, xt1Body(xt, { timestamp: iso(next - 60) }));
    const run2 = await ok(
      device,
      `${XT1}start-action/`,
      xt1Body(xt, { start_time_seconds: next, timestamp: iso(next) }),
    );
    expect(run2.record_id).not.toBe(run1.record_id);
    expect(await recordReply(device, run1.record_id)).toMatchObject({
      tag_status: 'XT1_IDLE',
      stop_time: iso(next),
    });

    // A run stopped before keeps its own stop time.
    const sn3 = serial('RT');
    await ok(device, `${RT}configure-action/`, { tag_id: sn3, measurement_interval: 60 });
    const stopped = await ok(device, `${RT}start-action/`, {
      tag_id: sn3,
      start_time_seconds: start,
    });
    await ok(device, `${RT}stop-action/`, {
      tag_id: sn3,
      start_time_seconds: start,
      stop_time_seconds: start + 600,
    });
    await ok(device, `${RT}start-action/`, { tag_id: sn3, start_time_seconds: next });
    expect((await recordReply(device, stopped.record_id)).stop_time).toBe(iso(start + 600));
  });
});

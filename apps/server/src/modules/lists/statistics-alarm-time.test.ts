import { ZRecordStatistics } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../../../test/helpers';
import { scannedShipment } from '../../../test/shipment-factories';

/**
 * The dashboard's date filter (issue 14 item 1): the filtered statistics
 * count records by shipment time (creation), and num_alarm_started_records
 * by alarm time (the alarm's start), whenever the record was created.
 */

const FILTERED = '/api/devices/xt1/records/statistics/filtered/';
/** 9 points a minute apart from an hour ago, high 8 and low 2: two alarms. */
const EXCURSIONS = [5, 5, 9, 9.5, 5, 5, 1, 1.5, 5];

/** A UTC date-time without an offset, to the second. */
const at = (ms: number) => new Date(ms).toISOString().slice(0, 19);

describe('filtered statistics: shipment time and alarm time [SPEC-7.2, FEAT-KEPT-COUNTS]', () => {
  let t: TestApp;
  let manager: TestClient;
  let stranger: TestClient;
  let createdAfter: number;

  beforeAll(async () => {
    t = await createTestApp();
    ({ client: manager } = await t.signIn({ role: 'Manager' }));
    ({ client: stranger } = await t.signIn({ role: 'Administrator' }));
    createdAfter = Date.now();
    // Created now; its alarms started about an hour ago (the data's time).
    await scannedShipment(manager, EXCURSIONS, 'SAT');
  });
  afterAll(() => t.close());

  const stats = async (client: TestClient, from: number, to: number) => {
    const res = await client.get(`${FILTERED}?start_date=${at(from)}&end_date=${at(to)}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZRecordStatistics.parse(res.json());
  };

  it('an hour ago: no record created then, but one record whose alarms started then', async () => {
    const s = await stats(manager, createdAfter - 2 * 3600_000, createdAfter - 10 * 60_000);
    expect(s).toMatchObject({ num_records: 0, num_alarm_records: 0, num_alarm_started_records: 1 });
  });

  it('since the creation: the record (in alarm), but no alarm started then', async () => {
    const s = await stats(manager, createdAfter - 1000, Date.now() + 60_000);
    expect(s).toMatchObject({ num_records: 1, num_alarm_records: 1, num_alarm_started_records: 0 });
  });

  it("another organization's period counts none of them", async () => {
    const s = await stats(stranger, createdAfter - 2 * 3600_000, Date.now() + 60_000);
    expect(s).toMatchObject({ num_records: 0, num_alarm_started_records: 0 });
  });
});

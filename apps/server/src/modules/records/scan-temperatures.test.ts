import { ZScan, type TScan } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { epoch, iso, serial, xt1Body } from '../../../test/shipment-factories';

const XT1 = '/api/devices/xt1/';

/**
 * Issue 11, spec section 3 (Scan): every scans reply carries the scan's
 * temperatures (the points it brought) and the tag's status.
 */
describe('Scan.temperatures and Scan.tag_status [SPEC-3, SPEC-7.2]', () => {
  let t: TestApp;
  let client: TestClient;
  let strangerClient: TestClient;
  let recordId: string;
  const start = epoch(new Date()) - 7200;

  const upload = async (c: TestClient, sn: string, path: string, body: Record<string, unknown>) => {
    const res = await c.post(`${XT1}${path}`, xt1Body(sn, body));
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { record_id: string };
  };

  const scansOf = async (c: TestClient, url: string): Promise<TScan[]> => {
    const res = await c.get(url);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as unknown[]).map((s) => ZScan.parse(s));
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({ client } = await t.signIn({ role: 'Administrator' }));
    ({ client: strangerClient } = await t.signIn({ role: 'Administrator' }));
    const sn = serial('SCAN');
    ({ record_id: recordId } = await upload(client, sn, 'start-action/', {
      start_time_seconds: start,
      timestamp: iso(start),
    }));
    // Two scans without tag_status: points 0-3, then 2-5 (2 and 3 again, one of them different).
    await upload(client, sn, 'scans/', {
      start_time_seconds: start,
      timestamp: iso(start + 600),
      temps: [4.1, 5.25, 6, 7.125],
    });
    await upload(client, sn, 'scans/', {
      start_time_seconds: start,
      timestamp: iso(start + 1200),
      temperatures_offset_index: 2,
      temps: [6, 9.5, 3.3, 2.75],
    });
    // The same serial number in another organization: its own tag, record and points.
    const other = await upload(strangerClient, sn, 'start-action/', {
      start_time_seconds: start,
      timestamp: iso(start),
    });
    await upload(strangerClient, sn, 'scans/', {
      start_time_seconds: start,
      timestamp: iso(start + 900),
      temps: [-20, -21, -22, -23, -24, -25],
    });
    expect(other.record_id).not.toBe(recordId);
  });
  afterAll(() => t.close());

  it('records/scans/ answers each scan with the points it brought and the tag status', async () => {
    const scans = await scansOf(client, `${XT1}records/scans/?record_ids=${recordId}`);
    expect(scans).toHaveLength(2);
    const [second, first] = scans; // newest first
    expect(first!.temperatures).toEqual([4.1, 5.25, 6, 7.125]);
    // Point 3 keeps the value stored first (7.125): the record's evidence does not change.
    expect(second!.temperatures).toEqual([6, 7.125, 3.3, 2.75]);
    for (const scan of scans) expect(scan.tag_status).toBe('XT1_ACTIVE');

    const [latest] = await scansOf(
      client,
      `${XT1}records/scans/?record_ids=${recordId}&latest=true`,
    );
    expect(latest!.temperatures).toEqual([6, 7.125, 3.3, 2.75]);
  });

  it('scans/ (every scan of the organization) says the same, and nothing of another organization', async () => {
    const scans = await scansOf(client, `${XT1}scans/?page_size=100`);
    expect(scans.map((s) => s.temperatures)).toEqual([
      [6, 7.125, 3.3, 2.75],
      [4.1, 5.25, 6, 7.125],
    ]);
    expect(scans.every((s) => s.tag_status === 'XT1_ACTIVE')).toBe(true);
    const theirs = await scansOf(strangerClient, `${XT1}scans/`);
    expect(theirs.map((s) => s.temperatures)).toEqual([[-20, -21, -22, -23, -24, -25]]);
  });

  it('a scan that reported no status: idle after its run stopped, pending before its start delay', async () => {
    const org = await t.createOrg();
    const { client: own } = await t.signIn({ role: 'Viewer', orgs: [org] });
    const f = recordFactories(t.db);
    const record = await f.record(org, await f.tag(org), {
      startTimeSeconds: start,
      startDelay: 3600,
      stopTime: new Date((start + 5000) * 1000),
    });
    const pending = await f.scan(record, { timestamp: new Date((start + 600) * 1000) });
    const active = await f.scan(record, { timestamp: new Date((start + 4000) * 1000) });
    const idle = await f.scan(record, { timestamp: new Date((start + 6000) * 1000) });
    const reported = await f.scan(record, {
      timestamp: new Date((start + 6500) * 1000),
      tagStatus: 'XT1_RESET',
    });
    const scans = await scansOf(own, `${XT1}records/scans/?record_ids=${record.id}`);
    const statusOf = (id: number) => scans.find((s) => s.id === String(id))?.tag_status;
    expect(statusOf(pending.id)).toBe('XT1_PENDING');
    expect(statusOf(active.id)).toBe('XT1_ACTIVE');
    expect(statusOf(idle.id)).toBe('XT1_IDLE');
    expect(statusOf(reported.id)).toBe('XT1_RESET');
    // No points uploaded with these scans: an empty list, not a missing field.
    expect(scans.every((s) => Array.isArray(s.temperatures) && s.temperatures.length === 0)).toBe(
      true,
    );
  });
});

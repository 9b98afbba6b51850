import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordActions } from '../src/db/schema-shipments';
import { createTestApp, type TestApp } from './helpers';
import { deviceUser, epoch, iso, serial } from './shipment-factories';

/** 5xx the fuzz test (fuzz.test.ts) found, each pinned by a focused test. */
describe('fuzz findings [FEAT-INPUT-SAFETY]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('nanotag status-action with a timestamp in milliseconds finds the run (it answered 500)', async () => {
    const { device } = await deviceUser(t);
    const sn = serial('NANO');
    const configured = await device.post('/api/devices/nanotag/configure-action/', {
      tag_id: sn,
      record_period_seconds: 120,
      report_period_seconds: 900,
    });
    expect(configured.statusCode, configured.body).toBe(200);
    const recordId = configured.json().record_id as string;
    const firstSample = epoch(new Date()) - 3600;
    const started = await device.post('/api/devices/nanotag/first-sample-action/', {
      tag_id: sn,
      first_sample_timestamp: iso(firstSample),
    });
    expect(started.statusCode, started.body).toBe(200);
    const at = new Date((firstSample + 600) * 1000 + 774).toISOString();
    expect(at).toMatch(/\.774Z$/);
    const res = await device.post('/api/devices/nanotag/status-action/', {
      tag_id: sn,
      last_sample_number: 5,
      last_sample_timestamp: at,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().record_id).toBe(recordId);
    const actions = await t.db
      .select({ type: recordActions.actionType })
      .from(recordActions)
      .where(eq(recordActions.recordId, Number(recordId)));
    expect(actions.map((a) => a.type)).toContain('STATUS');
  });
});

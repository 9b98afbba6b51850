import { ZAuditEvent, type TAuditEvent } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp, type TestClient } from '../../../test/helpers';
import { epoch, iso, serial, xt1Body } from '../../../test/shipment-factories';

const XT1 = '/api/devices/xt1/';

/**
 * Every change a person makes to regulated data leaves audit entries with
 * who, what, old and new value (domain rules section 6), readable through
 * GET /api/audit/ filtered by record or entity type.
 */
describe('audited actions [RULE-AUDIT-2]', () => {
  let t: TestApp;
  let admin: TestClient;
  let adminId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({
      role: 'Administrator',
      firstName: 'Quality',
      lastName: 'Manager',
    });
    admin = signedIn.client;
    adminId = signedIn.user.id;
  });
  afterAll(() => t.close());

  async function audit(query: string): Promise<TAuditEvent[]> {
    const res = await admin.get(`/api/audit/?page_size=1000&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return z.array(ZAuditEvent).parse(res.json());
  }

  /** The entries of `action` as field → [old, new]. */
  function changes(entries: readonly TAuditEvent[], action: string) {
    return Object.fromEntries(
      entries
        .filter((e) => e.action === action)
        .map((e) => [e.field, [e.old_value, e.new_value]] as const),
    );
  }

  it('shipment details and threshold edits, and trip time edits, with old and new values', async () => {
    const sn = serial('AUD');
    const start = epoch(new Date()) - 3600;
    const started = await admin.post(
      `${XT1}start-action/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    expect(started.statusCode, started.body).toBe(200);
    const recordId: string = started.json().record_id;
    let res = await admin.post(`${XT1}update-shipment-action/`, {
      record_id: recordId,
      high_threshold: 9.5,
      secondary_reference: 'LOT-7',
      timestamp: iso(start + 600),
    });
    expect(res.statusCode, res.body).toBe(200);
    res = await admin.post(`${XT1}records/trips/`, {
      record_id: recordId,
      begin_time: iso(start),
      timestamp: iso(start + 660),
    });
    expect(res.statusCode, res.body).toBe(200);

    const entries = await audit(`record_id=${recordId}`);
    expect(changes(entries, 'record.shipment.update')).toEqual({
      secondary_reference: ['', 'LOT-7'],
      high_threshold: [8, 9.5],
    });
    expect(changes(entries, 'record.trip.update')).toEqual({
      begin_time: [null, iso(start)],
      trip_status: ['NOT_DEPARTED', 'IN_TRANSIT'],
    });
    for (const e of entries) {
      expect(e).toMatchObject({
        entity_type: 'record',
        entity_id: recordId,
        record_id: recordId,
        actor_user_id: adminId,
        actor_name: 'Quality Manager',
        client_type: 'WEB',
      });
    }
    // A replay of the same upload writes nothing more.
    res = await admin.post(`${XT1}update-shipment-action/`, {
      record_id: recordId,
      high_threshold: 9.5,
      secondary_reference: 'LOT-7',
      timestamp: iso(start + 600),
    });
    expect(res.statusCode).toBe(200);
    expect(await audit(`record_id=${recordId}`)).toHaveLength(entries.length);
  });

  it('product, carrier and travel location creations and edits', async () => {
    let res = await admin.post('/api/products/product-definitions/', {
      product_name: 'Vaccine A',
      high_threshold: 8,
      low_threshold: 2,
    });
    expect(res.statusCode, res.body).toBe(200);
    const productId: string = res.json().id;
    res = await admin.patch(`/api/products/product-definitions/?product_id=${productId}`, {
      high_threshold: 7.5,
    });
    expect(res.statusCode, res.body).toBe(200);
    let entries = await audit('entity=product');
    expect(entries.find((e) => e.action === 'product.create')).toMatchObject({
      entity_id: productId,
      old_value: null,
      new_value: expect.objectContaining({ product_name: 'Vaccine A', high_threshold: 8 }),
    });
    expect(changes(entries, 'product.update')).toEqual({ high_threshold: [8, 7.5] });

    res = await admin.post('/api/products/carrier-definitions/', { name: 'Kuehne' });
    const carrierId: string = res.json().id;
    res = await admin.patch(`/api/products/carrier-definitions/?carrier_id=${carrierId}`, {
      name: 'Kuehne + Nagel',
    });
    expect(res.statusCode, res.body).toBe(200);
    entries = await audit('entity=carrier');
    expect(changes(entries, 'carrier.update')).toEqual({ name: ['Kuehne', 'Kuehne + Nagel'] });
    expect(entries.map((e) => e.action).sort()).toEqual(['carrier.create', 'carrier.update']);

    res = await admin.post('/api/products/travel-locations/', {
      name: 'Depot',
      address: 'Main street 1',
      latitude: 52.5,
      longitude: 13.4,
    });
    expect(res.statusCode, res.body).toBe(200);
    const locationId: string = res.json().id;
    res = await admin.patch(`/api/products/travel-locations/?travel_location_id=${locationId}`, {
      address: 'Main street 2',
    });
    expect(res.statusCode, res.body).toBe(200);
    entries = await audit('entity=location');
    expect(changes(entries, 'location.update')).toEqual({
      address: ['Main street 1', 'Main street 2'],
    });
  });

  it('geo-fence settings and the user’s own settings', async () => {
    let res = await admin.patch('/api/auth/org-settings/', {
      geo_fence_settings: { num_points_to_arrive: 5 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(changes(await audit('entity=geo_fence'), 'geo_fence.update')).toEqual({
      num_points_to_arrive: [2, 5],
    });

    res = await admin.patch('/api/auth/user-settings/', { degrees_unit: 'F' });
    expect(res.statusCode, res.body).toBe(200);
    res = await admin.patch('/api/auth/user-org-settings/', {
      alarm_notify_my_scans: true,
      alarm_notify_any_scans: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(changes(await audit('entity=user_settings'), 'user.settings.update')).toEqual({
      degrees_unit: ['C', 'F'],
    });
    expect(
      changes(await audit('entity=user_org_settings'), 'user.notification_settings.update'),
    ).toEqual({ alarm_notify_my_scans: [false, true] });
  });
});

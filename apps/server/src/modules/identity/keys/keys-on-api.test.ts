import { ZApiKey, ZErrorReply } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp, type TestClient } from '../../../../test/helpers';
import { recordOf, scannedShipment, xt1Body } from '../../../../test/shipment-factories';
import { API_KEY_CANNOT_SIGN } from '../../signatures';

/**
 * Issue 15 item 1: an API key works on every call the contract opens to keys
 * (`apiKey` in packages/contract), within its permissions and its organization;
 * a read-only key only reads; a key never signs; the API Keys list shows the
 * last use. The route walk (test/route-walk-cross-org.test.ts) tries every call
 * with another organization's keys.
 */
describe('API keys on the API [FEAT-API-KEYS-ON-API, SPEC-6.2]', () => {
  let t: TestApp;
  let admin: TestClient;
  let recordId: string;
  let sn: string;
  beforeAll(async () => {
    t = await createTestApp();
    ({ client: admin } = await t.signIn({ role: 'Administrator' }));
    ({ recordId, sn } = await scannedShipment(admin, [4, 5, 6, 12, 12, 12, 5]));
  });
  afterAll(() => t.close());

  const keyOf = async (body: Record<string, unknown>) => {
    const res = await admin.post('/api/keys/generate/', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().private_key as string;
  };
  const asKey = (key: string) => t.client({ headers: { authorization: `Api-Key ${key}` } });

  it('reads records, one record, alarms and the series of its own organization', async () => {
    const key = asKey(await keyOf({ name: 'ERP' }));
    const list = await key.get('/api/devices/xt1/records/');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().map((r: { id: string }) => String(r.id))).toContain(recordId);
    const one = await key.get(`/api/devices/xt1/record/?record_id=${recordId}`);
    expect(one.statusCode).toBe(200);
    expect(String(one.json().id)).toBe(recordId);
    const alarms = await key.get(`/api/devices/xt1/alarms/?record_id=${recordId}`);
    expect(alarms.statusCode).toBe(200);
    expect(alarms.json().length).toBeGreaterThan(0);
    const series = await key.get(`/api/devices/aggregate/record-series/?record_id=${recordId}`);
    expect(series.statusCode).toBe(200);
    expect(series.json().temperatures).toHaveLength(7);
  });

  it('uploads with a full key, as the key’s creator; a read-only key is refused and stores nothing', async () => {
    const full = asKey(await keyOf({ name: 'gateway' }));
    const scan = await full.post(
      '/api/devices/xt1/scans/',
      xt1Body(sn, { record_id: recordId, temps: [4, 4, 4, 4, 4, 4, 4, 4] }),
    );
    expect(scan.statusCode, scan.body).toBe(200);
    const edit = await full.post('/api/devices/xt1/update-shipment-action/', {
      record_id: recordId,
      primary_reference: 'PO-4711 via ERP',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    // The audit trail names the key as well as the person who created it.
    const trail = (await admin.get(`/api/audit/?record_id=${recordId}`)).json() as {
      user_name?: string | null;
    }[];
    expect(JSON.stringify(trail)).toMatch(/\(API key [a-z0-9]{8}\)/);

    const reader = asKey(await keyOf({ name: 'dashboard', read_only: true }));
    const before = await recordOf(t.db, recordId);
    const refused = await reader.post(
      '/api/devices/xt1/scans/',
      xt1Body(sn, { record_id: recordId, temps: [30, 30, 30, 30, 30, 30, 30, 30, 30, 30] }),
    );
    expect(refused.statusCode).toBe(403);
    expect(ZErrorReply.parse(refused.json()).message).toBe('This API key is read-only.');
    expect(await recordOf(t.db, recordId)).toEqual(before);
    // It still reads, and still authenticates.
    expect((await reader.get('/api/devices/xt1/records/')).statusCode).toBe(200);
    expect((await reader.post('/api/keys/authenticate/')).statusCode).toBe(200);
  });

  it('stays within the permissions of its role', async () => {
    const roles = (await admin.get('/api/auth/role-permissions/')).json() as {
      id: string;
      name: string;
    }[];
    const viewer = roles.find((r) => r.name === 'Viewer');
    expect(viewer).toBeDefined();
    const key = asKey(await keyOf({ name: 'viewer', role_id: viewer!.id }));
    expect((await key.get('/api/devices/xt1/records/')).statusCode).toBe(200);
    const upload = await key.post('/api/devices/xt1/scans/', xt1Body(sn, { record_id: recordId }));
    expect(upload.statusCode).toBe(403);
    expect(upload.json().message).toMatch(/needs readerScan/);
  });

  it('never signs: a change that needs a signature answers 403 naming password', async () => {
    const key = asKey(await keyOf({ name: 'qms' }));
    const res = await key.post('/api/devices/xt1/update-shipment-action/', {
      record_id: recordId,
      high_threshold: 15,
      reason: 'Product allows 15 °C',
      password: 'anything',
      meaning: 'APPROVED',
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toEqual({
      code: 'FORBIDDEN',
      message: API_KEY_CANNOT_SIGN,
      fields: { password: API_KEY_CANNOT_SIGN },
    });
    expect((await recordOf(t.db, recordId)).highThreshold).not.toBe(15);
  });

  it('is refused on a person’s calls: their session, settings, tokens, acknowledgement', async () => {
    const key = asKey(await keyOf({ name: 'other' }));
    for (const [method, url] of [
      ['GET', '/api/auth/session/'],
      ['GET', '/api/auth/tokens/'],
      ['POST', '/api/devices/xt1/alarm-acknowledge/'],
      ['GET', '/api/keys/generate/'],
      ['GET', '/api/auth/users/'],
    ] as const) {
      const res = await key.request({ method, url, payload: method === 'POST' ? {} : undefined });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 401 });
    }
  });

  it('the API Keys list shows read-only and the last use', async () => {
    const created = await admin.post('/api/keys/generate/', { name: 'seen', read_only: true });
    const { prefix, private_key: key } = created.json() as { prefix: string; private_key: string };
    const before = z
      .array(ZApiKey)
      .parse((await admin.get('/api/keys/generate/')).json())
      .find((k) => k.prefix === prefix)!;
    expect(before).toMatchObject({ read_only: true, last_used: null });
    const start = Date.now();
    expect((await asKey(key).get('/api/devices/xt1/records/')).statusCode).toBe(200);
    const after = z
      .array(ZApiKey)
      .parse((await admin.get('/api/keys/generate/')).json())
      .find((k) => k.prefix === prefix)!;
    expect(Date.parse(after.last_used!)).toBeGreaterThanOrEqual(start - 1000);
  });
});

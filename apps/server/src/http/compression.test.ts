import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { TOTAL_COUNT_HEADER } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient, type TestOrg } from '../../test/helpers';
import { recordFactories } from '../../test/record-factories';
import { ConfigError, loadConfig } from '../config';
import { COMPRESSION_THRESHOLD_BYTES, isCompressible } from './compression';

/**
 * Issue 13: API replies go out br or gzip as the client asks, with
 * `Vary: accept-encoding`; small replies, clients that do not ask, and files
 * that are compressed already (PDF) go out as they are.
 */

const POINTS = 2_000;
const CALIBRATION = '/api/devices/xt1/calibration/';

async function seriesWorld(t: TestApp): Promise<{ client: TestClient; org: TestOrg; url: string }> {
  const { client, orgs } = await t.signIn({ role: 'Manager' });
  const org = orgs[0]!;
  const f = recordFactories(t.db);
  const record = await f.record(org);
  await f.series(
    record,
    0,
    Array.from({ length: POINTS }, (_, i) => Math.round(50 + 30 * Math.sin(i / 50)) / 10),
  );
  return {
    client,
    org,
    url: `/api/devices/aggregate/record-temperatures/?record_ids=${record.id}`,
  };
}

describe('compressed API replies [FEAT-COMPRESSION]', () => {
  let t: TestApp;
  let client: TestClient;
  let org: TestOrg;
  let url: string;
  let plain: { body: string; headers: Record<string, unknown> };

  beforeAll(async () => {
    t = await createTestApp();
    ({ client, org, url } = await seriesWorld(t));
    const res = await client.get(url);
    expect(res.statusCode, res.body).toBe(200);
    plain = { body: res.body, headers: res.headers };
  });
  afterAll(() => t.close());

  it('without Accept-Encoding the series goes out plain', () => {
    expect(plain.headers['content-encoding']).toBeUndefined();
    const series = JSON.parse(plain.body) as { temperatures: unknown[] }[];
    expect(series[0]!.temperatures).toHaveLength(POINTS);
    expect(Buffer.byteLength(plain.body)).toBeGreaterThan(50 * COMPRESSION_THRESHOLD_BYTES);
  });

  it('br: the series comes back br-encoded, much smaller, and decodes to the same JSON', async () => {
    const res = await client.get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(plain.body) / 5);
    expect(brotliDecompressSync(res.rawPayload).toString('utf8')).toBe(plain.body);
    // What else the reply carries is unchanged: the list count, the security headers.
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers[TOTAL_COUNT_HEADER]).toBe('1');
    expect(res.headers[TOTAL_COUNT_HEADER]).toBe(plain.headers[TOTAL_COUNT_HEADER]);
    for (const header of [
      'content-security-policy',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'cache-control',
      'content-type',
    ]) {
      expect(res.headers[header], header).toBe(plain.headers[header]);
      expect(res.headers[header], header).toBeDefined();
    }
  });

  it('gzip when the client takes gzip only (or prefers it)', async () => {
    for (const accept of ['gzip', 'br;q=0.5, gzip;q=1']) {
      const res = await client.get(url, { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(gunzipSync(res.rawPayload).toString('utf8')).toBe(plain.body);
    }
  });

  it('identity or an encoding the server does not offer: plain', async () => {
    for (const accept of ['identity', 'deflate', 'zstd', 'br;q=0, gzip;q=0']) {
      const res = await client.get(url, { 'accept-encoding': accept });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBeUndefined();
      expect(res.body, accept).toBe(plain.body);
    }
  });

  it('a reply under the threshold (the CSRF token) goes out plain even when br is accepted', async () => {
    const bare = await client.get('/api/auth/csrf/');
    expect(bare.statusCode).toBe(200);
    expect(bare.rawPayload.length).toBeGreaterThan(0);
    expect(bare.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    const res = await client.get('/api/auth/csrf/', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBe(bare.rawPayload.length);
  });

  const uploadCertificate = (deviceId: number) =>
    client.post(CALIBRATION, {
      model_name: 'XT1 NFC MU rev. B',
      equipment: [
        { manufacturer: 'Fluke', model: '1524', serial_number: 'FL-1', description: 'Reference' },
      ],
      specifications: [{ temperature_range_low: -30, temperature_range_high: 50, dut_error: 0.5 }],
      calibrated_devices: [
        {
          device_id: deviceId,
          tag_type: 'XT1_NFC_MU',
          calibration_timestamp: '2026-06-15T09:30:00Z',
        },
      ],
    });

  it('a PDF (already compressed) is sent as it is', async () => {
    const tag = await recordFactories(t.db).tag(org);
    const uploaded = await uploadCertificate(tag.id);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const pdfUrl = (uploaded.json() as { devices: { pdf_url: string }[] }).devices[0]!.pdf_url;
    const res = await client.get(pdfUrl, { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  });

  it('the audit trail CSV export is compressed and decodes to the same file', async () => {
    // Audit entries enough for a CSV over the threshold.
    const tags = recordFactories(t.db);
    for (let i = 0; i < 6; i++) {
      expect((await uploadCertificate((await tags.tag(org)).id)).statusCode).toBe(200);
    }
    const bare = await client.get('/api/audit/csv/');
    expect(bare.statusCode, bare.body).toBe(200);
    expect(bare.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    const res = await client.get('/api/audit/csv/', { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(bare.headers['content-disposition']);
    expect(brotliDecompressSync(res.rawPayload).equals(bare.rawPayload)).toBe(true);
  });

  it('compressible types: JSON and text (CSV) yes; PDF, XLSX, event streams, binary no', () => {
    for (const yes of [
      'application/json; charset=utf-8',
      'text/csv; charset=utf-8',
      'text/html',
      'application/problem+json',
      'image/svg+xml',
    ]) {
      expect(isCompressible(yes), yes).toBe(true);
    }
    for (const no of [
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'text/event-stream',
      'application/octet-stream',
      'image/png',
    ]) {
      expect(isCompressible(no), no).toBe(false);
    }
  });
});

describe('COMPRESSION=off [FEAT-COMPRESSION]', () => {
  it('COMPRESSION is on by default; off, false, 0 and no turn it off; other values are refused', () => {
    expect(loadConfig({}).compression).toBe(true);
    expect(loadConfig({ COMPRESSION: '' }).compression).toBe(true);
    expect(loadConfig({ COMPRESSION: 'on' }).compression).toBe(true);
    for (const off of ['off', 'false', '0', 'no', 'OFF']) {
      expect(loadConfig({ COMPRESSION: off }).compression, off).toBe(false);
    }
    expect(() => loadConfig({ COMPRESSION: 'gzip' })).toThrow(ConfigError);
    expect(() => loadConfig({ COMPRESSION: 'gzip' })).toThrow(/COMPRESSION must be true or false/);
  });

  let t: TestApp;
  let client: TestClient;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ config: { compression: false } });
    ({ client, url } = await seriesWorld(t));
  });
  afterAll(() => t.close());

  it('replies go out plain whatever the client accepts (a proxy compresses instead)', async () => {
    const res = await client.get(url, { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect((res.json() as { temperatures: unknown[] }[])[0]!.temperatures).toHaveLength(POINTS);
  });
});

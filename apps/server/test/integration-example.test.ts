import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coldtraceClient, type ColdtraceClient } from '../../../examples/integration/client';
import {
  recordReportPdf,
  recordSeries,
  recordsInAlarm,
  sign,
  webhookHandler,
  type WebhookMessage,
} from '../../../examples/integration/integration';
import { REPO_ROOT } from '../src/config';
import { WEBHOOK_DELIVER_JOB, WEBHOOK_EVENT_JOB } from '../src/jobs/catalogue';
import { createTestApp, uid, type TestApp, type TestClient } from './helpers';
import { scannedShipment } from './shipment-factories';
import { eventually } from './smtp-sink';

/**
 * Issue 15 item 5: the integration of docs/api.md ("A client generated from the
 * OpenAPI document", examples/integration/) runs against a real server on a
 * port: its calls type-check against the types generated from docs/openapi.json
 * (tsc; test/prism-proxy.test.ts checks the types are fresh from /api/schema/),
 * and each reply validates against the schema the document publishes.
 */

const HOOKS = '/api/integrations/webhooks/';
/** Thresholds 8 / 2: points 2-3 are above. */
const EXCURSION = [5, 5, 9, 9.5, 5, 5];

type OpenApi = {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};

describe('the generated-client integration example (docs/api.md) [FEAT-OPENAPI, FEAT-API-KEYS-ON-API, FEAT-WEBHOOKS]', () => {
  let t: TestApp;
  let admin: TestClient;
  let client: ColdtraceClient;
  let receiver: http.Server;
  let receiverUrl: string;
  let doc: OpenApi;
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats.default(ajv);

  /** Validate a reply against the 200 schema of `path` in docs/openapi.json. */
  function expectDocumented(pathName: string, body: unknown) {
    const ref = `openapi.json#/paths/${pathName.replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema`;
    const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
    const valid = validate(body);
    expect(validate.errors ?? [], `${pathName} as documented`).toEqual([]);
    expect(valid).toBe(true);
  }

  beforeAll(async () => {
    doc = JSON.parse(await readFile(path.join(REPO_ROOT, 'docs/openapi.json'), 'utf8')) as OpenApi;
    ajv.addSchema(doc, 'openapi.json');
    t = await createTestApp({ config: { webhooks: { allowPrivate: true, retryDelaySeconds: 1 } } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    ({ client: admin } = await t.signIn({ role: 'Administrator' }));
    const key = await admin.post('/api/keys/generate/', { name: `ERP ${uid()}`, read_only: true });
    expect(key.statusCode, key.body).toBe(200);
    client = coldtraceClient(`http://127.0.0.1:${port}`, key.json().private_key as string);
    receiver = http.createServer();
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/coldtrace`;
  });
  afterAll(async () => {
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await t?.close();
  });

  it('lists the records in alarm, reads one record’s series, and receives alarm.raised verified, once', async () => {
    const events: WebhookMessage[] = [];
    const hook = await admin.post(HOOKS, {
      url: receiverUrl,
      events: ['alarm.raised'],
      description: 'integration example',
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const secret = hook.json().secret as string;
    receiver.on('request', webhookHandler({ secret, onEvent: (m) => void events.push(m) }));

    const calm = await scannedShipment(admin, [5, 5, 5, 5], 'CALM');
    const hot = await scannedShipment(admin, EXCURSION, 'HOT');

    const { records, total } = await recordsInAlarm(client);
    const ids = records.map((r) => r.id);
    expect(ids).toEqual([hot.recordId]);
    expect(total).toBe(1);
    expect(records[0]).toMatchObject({ computed_status: 'Alarm', tag_serial_number: hot.sn });
    expect(ids).not.toContain(calm.recordId);

    const series = await recordSeries(client, hot.recordId);
    expect(series).toMatchObject({
      record_id: hot.recordId,
      temperatures: EXCURSION,
      point_count: EXCURSION.length,
      high_threshold: 8,
      low_threshold: 2,
      reduced: false,
    });

    // The replies are what the published document says they are.
    expectDocumented('/api/devices/xt1/records/', records);
    expectDocumented('/api/devices/aggregate/record-series/', series);

    // A download is the file the document declares (application/pdf), read with parseAs.
    const pdf = await recordReportPdf(client, hot.recordId);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const download = doc.paths['/api/devices/xt1/reports/pdf/']!.get!.responses['200'] as {
      content: Record<string, unknown>;
    };
    expect(Object.keys(download.content)).toEqual(['application/pdf']);

    await eventually(
      async () => events,
      (got) => got.length >= 1,
      30_000,
    );
    await t.app.jobs.waitForIdle([WEBHOOK_EVENT_JOB, WEBHOOK_DELIVER_JOB], 30_000);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({
      event: 'alarm.raised',
      data: {
        alarm: { record_id: hot.recordId, above_or_below: 'ABOVE' },
        record: { id: hot.recordId, status: 'Alarm' },
      },
    });

    // A redelivery carries the same delivery id: verified, answered 2xx, not handled twice.
    const redeliver = await admin.post(`${HOOKS}redeliver/`, { delivery_id: event!.id });
    expect(redeliver.statusCode, redeliver.body).toBe(200);
    await t.app.jobs.waitForIdle([WEBHOOK_EVENT_JOB, WEBHOOK_DELIVER_JOB], 30_000);
    const deliveries = await admin.get(
      `${HOOKS}deliveries/?webhook_id=${hook.json().id as string}`,
    );
    const delivery = (deliveries.json() as { id: string; attempts: number; status: string }[])[0]!;
    expect(delivery).toMatchObject({ id: event!.id, status: 'delivered' });
    expect(delivery.attempts).toBeGreaterThanOrEqual(2);
    expect(events).toHaveLength(1);
  });

  it('the receiver refuses a forged signature, a replayed timestamp and a mismatched delivery id', async () => {
    const secret = 'f'.repeat(64);
    const handled: WebhookMessage[] = [];
    const server = http.createServer(
      webhookHandler({ secret, onEvent: (m) => void handled.push(m) }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const body = JSON.stringify({ id: 'd-1', event: 'alarm.raised', data: {} });
    const post = (headers: Record<string, string>) =>
      fetch(url, { method: 'POST', body, headers }).then((r) => r.status);
    const signed = (ts: number, key = secret, delivery = 'd-1') => ({
      'x-coldtrace-delivery': delivery,
      'x-coldtrace-timestamp': String(ts),
      'x-coldtrace-signature': sign(key, body),
      'x-coldtrace-timestamp-signature': sign(key, `${ts}.${body}`),
    });
    const now = Math.floor(Date.now() / 1000);
    try {
      expect(await post(signed(now, 'e'.repeat(64)))).toBe(401);
      expect(await post(signed(now - 3600))).toBe(401);
      expect(await post(signed(now, secret, 'd-2'))).toBe(400);
      expect(handled).toHaveLength(0);
      expect(await post(signed(now))).toBe(204);
      expect(await post(signed(now))).toBe(204);
      expect(handled).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

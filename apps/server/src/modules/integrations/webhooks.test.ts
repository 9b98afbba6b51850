import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhooks } from '../../db/schema-integrations';
import { records } from '../../db/schema-shipments';
import {
  WEBHOOK_DELIVER_JOB,
  WEBHOOK_EVENT_JOB,
  WEBHOOK_RETRY_LIMIT,
  jobCatalogue,
  publishWebhookEvent,
  type JobData,
  type WebhookEvent,
} from '../../jobs/catalogue';
import {
  TEST_PASSWORD,
  createTestApp,
  type TestApp,
  type TestClient,
  type TestOrg,
} from '../../../test/helpers';
import {
  createTravelLocation,
  deviceUser,
  epoch,
  iso,
  scannedShipment,
  serial,
  setGeoFence,
  stoppedShipment,
  xt1Body,
} from '../../../test/shipment-factories';
import { eventually } from '../../../test/smtp-sink';
import { startReceiver, validSignature, type Receiver } from '../../../test/webhook-receiver';
import { sendDelivery } from './send';
import { webhookDeliverWorker, webhookEventWorker } from './service';

const HOOKS = '/api/integrations/webhooks/';
const DELIVERIES = `${HOOKS}deliveries/`;
const REDELIVER = `${HOOKS}redeliver/`;
const del = (client: TestClient, url: string) => client.request({ method: 'DELETE', url });
/** One excursion above (points 2-3) and one below (points 6-7), thresholds 8 / 2. */
const TEMPS = [5, 5, 9, 9.5, 5, 5, 1, 1.5, 5];

/**
 * A shipment from Amsterdam to Paris (departure beyond 1 km, arrival within
 * 500 m, one point each); `scanAt(minutes, latitude, longitude)` uploads a scan
 * of that many minutes of 5 °C taken there.
 */
async function tripShipment(t: TestApp) {
  const user = await deviceUser(t, { role: 'Administrator' });
  await setGeoFence(t.db, user.org.id, {
    arrivalMetres: 500,
    departureMetres: 1000,
    toArrive: 1,
    toDepart: 1,
  });
  const origin = await createTravelLocation(t.db, user.org.id, { latitude: 52.37, longitude: 4.9 });
  const destination = await createTravelLocation(t.db, user.org.id, {
    latitude: 48.85,
    longitude: 2.35,
  });
  const sn = serial();
  const start = epoch(new Date()) - 4 * 3600;
  const xt1 = async (path: string, body: Record<string, unknown>) => {
    const res = await user.device.post(
      `/api/devices/xt1/${path}`,
      xt1Body(sn, { start_time_seconds: start, ...body }),
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { record_id: string };
  };
  const { record_id: recordId } = await xt1('start-action/', { timestamp: iso(start) });
  await xt1('create-shipment-action/', {
    timestamp: iso(start + 60),
    shipper_name_address_id: origin,
    receiver_name_address_id: destination,
  });
  const scanAt = (minutes: number, latitude: number, longitude: number) =>
    xt1('scans/', {
      timestamp: iso(start + minutes * 60),
      temps: Array(minutes).fill(5),
      latitude,
      longitude,
    });
  return { user, recordId, scanAt };
}

interface Body {
  id: string;
  event: string;
  occurred_at: string;
  organization_id: string;
  data: {
    alarm?: { id: string; above_or_below: string };
    record: { id: string };
    disposition?: { decision: string; comment: string; meaning: string; signed_by: string } | null;
  };
}

describe('webhooks [FEAT-WEBHOOKS]', () => {
  let t: TestApp;
  let receiver: Receiver;
  let admin: TestClient;
  let orgId: string;
  let org: TestOrg;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp({ config: { webhooks: { allowPrivate: true, retryDelaySeconds: 1 } } });
    const signed = await t.signIn({ role: 'Administrator' });
    admin = signed.client;
    org = signed.orgs[0]!;
    orgId = org.id;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const idle = () => t.app.jobs.waitForIdle([WEBHOOK_EVENT_JOB, WEBHOOK_DELIVER_JOB], 30_000);
  const bodies = (path: string) =>
    receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as Body);

  async function createHook(client: TestClient, path: string, events: string[]) {
    const res = await client.post(HOOKS, { url: `${receiver.url.replace('/hook', path)}`, events });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: string; secret: string; url: string };
  }

  it('creates a webhook whose secret is shown once and stored encrypted; lists and edits it', async () => {
    const hook = await createHook(admin, '/crud', ['alarm.raised', 'record.disposition']);
    expect(hook.secret).toMatch(/^[0-9a-f]{64}$/);
    const list = await admin.get(HOOKS);
    expect(list.statusCode).toBe(200);
    const listed = (list.json() as Record<string, unknown>[]).find((w) => w.id === hook.id);
    expect(listed).toMatchObject({ events: ['alarm.raised', 'record.disposition'], active: true });
    expect(listed).not.toHaveProperty('secret');
    const [row] = await t.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(row!.secretEncrypted).not.toContain(hook.secret);

    const edited = await admin.patch(`${HOOKS}?webhook_id=${hook.id}`, {
      active: false,
      description: 'ERP',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ active: false, description: 'ERP' });
    expect(edited.json()).not.toHaveProperty('secret');
    const rotated = await admin.patch(`${HOOKS}?webhook_id=${hook.id}`, { rotate_secret: true });
    const secret = (rotated.json() as { secret: string }).secret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(secret).not.toBe(hook.secret);

    const bad = await admin.post(HOOKS, { url: receiver.url, events: ['alarm.exploded'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('events');

    const deleted = await del(admin, `${HOOKS}?webhook_id=${hook.id}`);
    expect(deleted.statusCode).toBe(204);
    const after = (await admin.get(HOOKS)).json() as { id: string }[];
    expect(after.map((w) => w.id)).not.toContain(hook.id);
    expect((await admin.patch(`${HOOKS}?webhook_id=${hook.id}`, { active: true })).statusCode).toBe(
      404,
    );
  });

  it('an excursion is delivered once per alarm, signed; acknowledging sends alarm.acknowledged', async () => {
    const hook = await createHook(admin, '/excursion', ['alarm.raised', 'alarm.acknowledged']);
    const { recordId } = await scannedShipment(admin, TEMPS, 'WHK');
    await idle();
    const raised = receiver.received.filter((r) => r.path === '/excursion');
    expect(raised).toHaveLength(2);
    for (const r of raised) {
      expect(
        validSignature(hook.secret, r.body, r.headers['x-coldtrace-signature'] as string),
      ).toBe(true);
      const body = JSON.parse(r.body) as Body;
      expect(r.headers['x-coldtrace-event']).toBe('alarm.raised');
      expect(r.headers['x-coldtrace-delivery']).toBe(body.id);
      expect(r.headers['user-agent']).toMatch(/^Coldtrace-Webhooks\//);
      expect(r.headers['content-type']).toBe('application/json');
      const ts = Number(r.headers['x-coldtrace-timestamp']);
      expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(60);
      expect(
        validSignature(
          hook.secret,
          `${ts}.${r.body}`,
          r.headers['x-coldtrace-timestamp-signature'] as string,
        ),
      ).toBe(true);
      expect(body).toMatchObject({ event: 'alarm.raised', organization_id: orgId });
      expect(body.data.record.id).toBe(recordId);
    }
    expect(
      bodies('/excursion')
        .map((b) => b.data.alarm!.above_or_below)
        .sort(),
    ).toEqual(['ABOVE', 'BELOW']);
    // A wrong secret does not verify.
    expect(
      validSignature(
        '0'.repeat(64),
        raised[0]!.body,
        raised[0]!.headers['x-coldtrace-signature'] as string,
      ),
    ).toBe(false);

    const above = bodies('/excursion').find((b) => b.data.alarm!.above_or_below === 'ABOVE')!;
    const ack = await admin.post('/api/devices/xt1/alarm-acknowledge/', {
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
      alarm_ids: [above.data.alarm!.id],
      comment: 'Checked',
      client_type: 'WEB',
    });
    expect(ack.statusCode, ack.body).toBe(200);
    await idle();
    const acked = bodies('/excursion').filter((b) => b.event === 'alarm.acknowledged');
    expect(acked).toHaveLength(1);
    expect(acked[0]!.data.alarm!.id).toBe(above.data.alarm!.id);

    const log = await admin.get(`${DELIVERIES}?webhook_id=${hook.id}`);
    expect(log.statusCode).toBe(200);
    expect(log.headers['x-total-count']).toBe('3');
    const entries = log.json() as {
      status: string;
      last_response_code: number;
      attempt_log: unknown[];
    }[];
    expect(entries.every((e) => e.status === 'delivered' && e.last_response_code === 200)).toBe(
      true,
    );
    expect(entries.every((e) => e.attempt_log.length === 1)).toBe(true);
  });

  it('a signed release decision sends record.disposition with the decision it announces', async () => {
    await createHook(admin, '/decision', ['record.disposition']);
    // Stopped: a release needs the trip ended (issue 35); the meaning follows the decision.
    const { recordId } = await stoppedShipment(admin, [5, 5, 5, 5], 'WHD');
    const decide = (decision: string, comment: string) =>
      admin.post('/api/devices/xt1/records/disposition/', {
        record_id: recordId,
        decision,
        comment,
        password: TEST_PASSWORD,
      });
    expect((await decide('QUARANTINED', 'Hold for review')).statusCode).toBe(200);
    expect((await decide('RELEASED', 'All in range')).statusCode).toBe(200);
    await idle();
    const got = bodies('/decision').sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
    expect(got.map((b) => [b.event, b.data.record.id, b.data.disposition?.decision])).toEqual([
      ['record.disposition', recordId, 'QUARANTINED'],
      ['record.disposition', recordId, 'RELEASED'],
    ]);
    expect(got[1]!.data.disposition).toMatchObject({
      comment: 'All in range',
      meaning: 'APPROVED',
    });
  });

  it('a trip edit that closes alarms sends alarm.closed for each', async () => {
    await createHook(admin, '/closed', ['alarm.closed']);
    const { recordId, start } = await scannedShipment(admin, TEMPS, 'WHC');
    const trip = await admin.post('/api/devices/xt1/records/trips/', {
      record_id: recordId,
      begin_time: iso(start),
      end_time: iso(start + 60),
      timestamp: iso(start + 700),
      reason: 'Loaded at 0:00, delivered at 0:01',
      password: TEST_PASSWORD,
      meaning: 'APPROVED',
    });
    expect(trip.statusCode, trip.body).toBe(200);
    await idle();
    const got = bodies('/closed');
    expect(got.map((b) => b.event)).toEqual(['alarm.closed', 'alarm.closed']);
    expect(got.every((b) => b.data.record.id === recordId)).toBe(true);
    expect(got.map((b) => b.data.alarm!.above_or_below).sort()).toEqual(['ABOVE', 'BELOW']);
  });

  it('a detected departure and arrival send record.departed and record.arrived', async () => {
    const { user, recordId, scanAt } = await tripShipment(t);
    await createHook(user.client, '/trip', ['record.departed', 'record.arrived']);
    await scanAt(10, 52.37, 4.9);
    await scanAt(60, 51.5, 4.0);
    await scanAt(120, 48.85, 2.35);
    await idle();
    const got = bodies('/trip');
    // Deliveries are independent jobs: no order is promised (occurred_at tells).
    expect(got.map((b) => b.event).sort()).toEqual(['record.arrived', 'record.departed']);
    expect(got.every((b) => b.data.record.id === recordId)).toBe(true);
    expect(got.every((b) => b.organization_id === user.org.id)).toBe(true);
  });

  it('a failing receiver gets a retry with the same delivery id; redeliver sends the same body again', async () => {
    const hook = await createHook(admin, '/flaky', ['alarm.raised']);
    let failures = 0;
    receiver.answer = (r) => (r.path === '/flaky' && failures++ < 2 ? 500 : 200);
    try {
      await scannedShipment(admin, [5, 5, 9, 9.5, 5], 'WHF');
      await eventually(
        async () => receiver.received.filter((r) => r.path === '/flaky'),
        (got) => got.length >= 3,
        30_000,
      );
      await idle();
    } finally {
      receiver.answer = () => 200;
    }
    const got = receiver.received.filter((r) => r.path === '/flaky');
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers['x-coldtrace-delivery'])).size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    const [entry] = (await admin.get(`${DELIVERIES}?webhook_id=${hook.id}`)).json() as {
      id: string;
      status: string;
      attempts: number;
      attempt_log: { success: boolean; response_code: number; error: string | null }[];
    }[];
    expect(entry).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(entry!.attempt_log.map((a) => a.response_code)).toEqual([200, 500, 500]);
    expect(entry!.attempt_log[1]!.error).toBe('HTTP 500');

    const again = await admin.post(REDELIVER, { delivery_id: entry!.id });
    expect(again.statusCode, again.body).toBe(200);
    await idle();
    const all = receiver.received.filter((r) => r.path === '/flaky');
    expect(all).toHaveLength(4);
    expect(all[3]!.headers['x-coldtrace-delivery']).toBe(entry!.id);
    expect(all[3]!.body).toBe(got[0]!.body);
  });

  it('a redirect is not followed: the delivery fails and is retried', async () => {
    const hook = await createHook(admin, '/moved', ['alarm.raised']);
    receiver.answer = (r) =>
      r.path === '/moved'
        ? { status: 302, location: receiver.url.replace('/hook', '/target') }
        : 200;
    try {
      await scannedShipment(admin, [5, 5, 9, 9.5, 5], 'WHR');
      await eventually(
        async () =>
          (await admin.get(`${DELIVERIES}?webhook_id=${hook.id}`)).json() as {
            attempts: number;
            last_error: string;
          }[],
        (rows) => rows.length === 1 && rows[0]!.attempts >= 2,
        30_000,
      );
      const [entry] = (await admin.get(`${DELIVERIES}?webhook_id=${hook.id}`)).json() as {
        status: string;
        last_response_code: number;
        last_error: string;
      }[];
      expect(entry).toMatchObject({ status: 'pending', last_response_code: 302 });
      expect(entry!.last_error).toContain('redirect not followed');
      expect(receiver.received.filter((r) => r.path === '/target')).toHaveLength(0);
      await del(admin, `${HOOKS}?webhook_id=${hook.id}`);
    } finally {
      receiver.answer = () => 200;
    }
    await idle();
    // Deleted: the next attempt sends nothing and marks the delivery failed; the log stays.
    const moved = receiver.received.filter((r) => r.path === '/moved').length;
    const [after] = (await admin.get(`${DELIVERIES}?webhook_id=${hook.id}`)).json() as {
      status: string;
      last_error: string;
    }[];
    expect(after).toMatchObject({ status: 'failed', last_error: 'webhook deleted' });
    expect(receiver.received.filter((r) => r.path === '/moved')).toHaveLength(moved);
    expect(receiver.received.filter((r) => r.path === '/target')).toHaveLength(0);
  });

  it('tenancy: another organization neither sees nor changes a webhook, nor gets its events', async () => {
    const mine = await createHook(admin, '/mine', ['alarm.raised']);
    const other = await t.signIn({ role: 'Administrator' });
    const theirs = await createHook(other.client, '/theirs', ['alarm.raised']);
    const listed = (await other.client.get(HOOKS)).json() as { id: string }[];
    expect(listed.map((w) => w.id)).toEqual([theirs.id]);
    for (const res of [
      await other.client.patch(`${HOOKS}?webhook_id=${mine.id}`, { active: false }),
      await del(other.client, `${HOOKS}?webhook_id=${mine.id}`),
      await other.client.get(`${DELIVERIES}?webhook_id=${mine.id}`),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
    }
    await scannedShipment(admin, [5, 5, 9, 9.5, 5], 'WHT');
    await idle();
    expect(bodies('/mine')).toHaveLength(1);
    expect(bodies('/theirs')).toHaveLength(0);
    const delivery = (
      (await admin.get(`${DELIVERIES}?webhook_id=${mine.id}`)).json() as { id: string }[]
    )[0]!;
    const redeliver = await other.client.post(REDELIVER, { delivery_id: delivery.id });
    expect(redeliver.statusCode).toBe(404);
    expect(
      ((await admin.get(HOOKS)).json() as { id: string; active: boolean }[]).find(
        (w) => w.id === mine.id,
      ),
    ).toMatchObject({ active: true });
  });

  it('administrators only', async () => {
    const viewer = await t.signIn({ role: 'Viewer', orgs: [org] });
    expect((await viewer.client.get(HOOKS)).statusCode).toBe(403);
    expect(
      (await viewer.client.post(HOOKS, { url: receiver.url, events: ['alarm.raised'] })).statusCode,
    ).toBe(403);
  });
});

describe('webhook delivery: outbox, last attempt, the address checked again [FEAT-WEBHOOKS]', () => {
  let t: TestApp;
  let receiver: Receiver;
  let admin: TestClient;
  let orgId: string;
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp({
      config: { webhooks: { allowPrivate: true, retryDelaySeconds: 1 } },
      jobs: { runWorkers: false },
    });
    const signed = await t.signIn({ role: 'Administrator' });
    admin = signed.client;
    orgId = signed.orgs[0]!.id;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });
  const row = async (deliveryId: string) =>
    (await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)))[0];
  /** The `webhook.deliver` jobs queued for a delivery, with the seconds before each may run. */
  const deliverJobs = async (deliveryId: string) =>
    (
      await t.db.execute<{ data: unknown; delay: number }>(
        sql`SELECT data, extract(epoch FROM start_after - now())::float8 AS delay
              FROM pgboss.job WHERE name = ${WEBHOOK_DELIVER_JOB} AND data->>'deliveryId' = ${deliveryId}`,
      )
    ).rows;
  async function insertDelivery(webhookId: string) {
    const deliveryId = randomUUID();
    await t.db.insert(webhookDeliveries).values({
      id: deliveryId,
      organizationId: orgId,
      webhookId,
      event: 'alarm.raised',
      eventKey: `alarm.raised:${deliveryId}`,
      payload: JSON.stringify({ id: deliveryId }),
    });
    return deliveryId;
  }
  const jobCount = async (name: string) =>
    (
      await t.db.execute<{ n: string }>(
        sql`SELECT count(*)::text AS n FROM pgboss.job WHERE name = ${name}`,
      )
    ).rows[0]!.n;

  /** Runs the fan-out of `events`, then every delivery of the webhook (the workers are off). */
  async function fanOutAndDeliver(events: JobData<'webhook.event'>[], webhookId: string) {
    const fanOut = webhookEventWorker(t.app);
    for (const event of events) await fanOut(event);
    const deliver = webhookDeliverWorker(t.app);
    const deliveries = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId));
    for (const d of deliveries) await deliver({ deliveryId: d.id, retry: 0, attempts: 0 });
  }

  it('an event exists exactly when its transaction commits, and only for a record it sees', async () => {
    const { recordId } = await stoppedShipment(admin, [5, 5, 5, 5], 'WHT');
    const before = await jobCount(WEBHOOK_EVENT_JOB);
    const event: WebhookEvent = {
      organizationId: orgId,
      event: 'record.disposition',
      recordId: Number(recordId),
      occurredAt: new Date().toISOString(),
    };
    // No record of that id in the organization: nothing to tell of.
    await t.db.transaction((tx) =>
      publishWebhookEvent(t.app.jobs, tx, { ...event, organizationId: randomUUID() }),
    );
    expect(await jobCount(WEBHOOK_EVENT_JOB)).toBe(before);
    await expect(
      t.db.transaction(async (tx) => {
        await publishWebhookEvent(t.app.jobs, tx, event);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await jobCount(WEBHOOK_EVENT_JOB)).toBe(before);
    await t.db.transaction((tx) => publishWebhookEvent(t.app.jobs, tx, event));
    expect(Number(await jobCount(WEBHOOK_EVENT_JOB))).toBe(Number(before) + 1);
  });

  it('the last attempt marks a delivery failed; a private address is refused at delivery time', async () => {
    const res = await admin.post(HOOKS, { url: receiver.url, events: ['alarm.raised'] });
    expect(res.statusCode, res.body).toBe(200);
    const hook = res.json() as { id: string };
    const deliveryId = await insertDelivery(hook.id);
    const deliver = webhookDeliverWorker(t.app);
    receiver.answer = () => 503;
    try {
      // Not the last attempt: logged, and the next one queued after the back-off
      // (1 s × 2^0 × 1-2) in the same transaction.
      await deliver({ deliveryId, retry: 0, attempts: 0 });
      expect(await row(deliveryId)).toMatchObject({ status: 'pending', attempts: 1 });
      const queued = await deliverJobs(deliveryId);
      expect(queued.map((j) => j.data)).toEqual([{ deliveryId, retry: 1, attempts: 1 }]);
      expect(queued[0]!.delay).toBeGreaterThanOrEqual(0.9);
      expect(queued[0]!.delay).toBeLessThanOrEqual(2.1);
      // A copy of the first job run again (its lease ran out while it was still sending): its
      // attempt is recorded, so it sends nothing and queues nothing.
      await deliver({ deliveryId, retry: 0, attempts: 0 });
      expect(receiver.received).toHaveLength(1);
      expect(await deliverJobs(deliveryId)).toHaveLength(1);
      // The last one: logged, marked failed, no retry.
      await deliver({ deliveryId, retry: WEBHOOK_RETRY_LIMIT, attempts: 1 });
    } finally {
      receiver.answer = () => 200;
    }
    expect(await row(deliveryId)).toMatchObject({
      status: 'failed',
      attempts: 2,
      lastResponseCode: 503,
    });
    expect(receiver.received).toHaveLength(2);
    expect(await deliverJobs(deliveryId)).toHaveLength(1);

    // Saved while private addresses were allowed; refused now, nothing sent.
    const refused = await sendDelivery({
      url: receiver.url.replace('http:', 'https:'),
      secret: 's',
      event: 'alarm.raised',
      deliveryId,
      body: '{}',
      allowPrivate: false,
    });
    expect(refused).toMatchObject({ success: false, responseCode: null });
    expect(refused.error).toContain('127.0.0.1');
    expect(receiver.received).toHaveLength(2);

    // A host name: resolved once, checked, and connected to at the checked address.
    const byName = await sendDelivery({
      url: receiver.url.replace('127.0.0.1', 'localhost'),
      secret: 's',
      event: 'alarm.raised',
      deliveryId,
      body: '{}',
      allowPrivate: true,
    });
    expect(byName).toMatchObject({ success: true, responseCode: 200, error: null });
    expect(receiver.received).toHaveLength(3);

    // A name whose answer turned into a form that carries a private address (DNS rebinding
    // after the check at save time): refused at the attempt, nothing sent.
    for (const address of ['::7f00:1', '::ffff:7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::']) {
      const rebound = await sendDelivery({
        url: 'https://hook.example/x',
        secret: 's',
        event: 'alarm.raised',
        deliveryId,
        body: '{}',
        allowPrivate: false,
        resolve: async () => [{ address, family: 6 }],
      });
      expect(rebound, address).toMatchObject({ success: false, responseCode: null });
      expect(rebound.error).toContain(`resolves to ${address}`);
    }
    expect(receiver.received).toHaveLength(3);
  });

  it('a delivery recorded delivered is not sent again by a later run of its job', async () => {
    const res = await admin.post(HOOKS, { url: receiver.url, events: ['alarm.raised'] });
    const deliveryId = await insertDelivery((res.json() as { id: string }).id);
    const deliver = webhookDeliverWorker(t.app);
    const before = receiver.received.length;
    await deliver({ deliveryId, retry: 0, attempts: 0 });
    expect(await row(deliveryId)).toMatchObject({ status: 'delivered', attempts: 1 });
    // The same job again (its server died after the commit, before the queue heard it was done),
    // and a copy that names no attempts (queued by an earlier release).
    await deliver({ deliveryId, retry: 0, attempts: 0 });
    await deliver({ deliveryId, retry: 0 });
    expect(receiver.received.length - before).toBe(1);
    expect(await row(deliveryId)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await deliverJobs(deliveryId)).toHaveLength(0);
  });

  it('a departure fanned out after the arrival says what was true when it departed (issue 35)', async () => {
    const { user, recordId, scanAt } = await tripShipment(t);
    const hook = await user.client.post(HOOKS, {
      url: receiver.url.replace('/hook', '/moment'),
      events: ['record.departed', 'record.arrived'],
    });
    expect(hook.statusCode, hook.body).toBe(200);
    await scanAt(10, 52.37, 4.9);
    await scanAt(60, 51.5, 4.0);
    // Arrived before any fan-out ran (the workers are off): the departure's job still waits.
    await scanAt(120, 48.85, 2.35);
    const [record] = await t.db
      .select()
      .from(records)
      .where(eq(records.id, Number(recordId)));
    expect(record!.tripStatus).toBe('ARRIVED');

    const events = (
      await t.db.execute<{ data: unknown }>(
        sql`SELECT data FROM pgboss.job
             WHERE name = ${WEBHOOK_EVENT_JOB} AND data->>'recordId' = ${recordId}
               AND data->>'event' LIKE 'record.%'
             ORDER BY created_on`,
      )
    ).rows.map((job) => jobCatalogue[WEBHOOK_EVENT_JOB].payload.parse(job.data));
    expect(events.map((e) => e.event)).toEqual(['record.departed', 'record.arrived']);
    await fanOutAndDeliver(events, (hook.json() as { id: string }).id);

    const sent = receiver.received
      .filter((r) => r.path === '/moment')
      .map(
        (r) => JSON.parse(r.body) as { event: string; data: { record: Record<string, unknown> } },
      );
    const of = (event: string) => sent.filter((b) => b.event === event).map((b) => b.data.record);
    expect(of('record.departed')).toEqual([
      expect.objectContaining({
        id: recordId,
        trip_status: 'IN_TRANSIT',
        trip_begin_time: record!.tripBeginTime!.toISOString(),
        trip_end_time: null,
      }),
    ]);
    expect(of('record.arrived')).toEqual([
      expect.objectContaining({
        id: recordId,
        trip_status: 'ARRIVED',
        trip_end_time: record!.tripEndTime!.toISOString(),
      }),
    ]);
  });
  it('an alarm acknowledged before its fan-out: alarm.raised still says unacknowledged (issue 35)', async () => {
    const hook = await admin.post(HOOKS, {
      url: receiver.url.replace('/hook', '/ack-moment'),
      events: ['alarm.raised', 'alarm.acknowledged'],
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const { recordId } = await scannedShipment(admin, TEMPS, 'WHM');
    const [above] = (
      await t.db.execute<{ id: string }>(
        sql`SELECT id::text FROM alarms WHERE record_id = ${Number(recordId)} AND above_or_below = 'ABOVE'`,
      )
    ).rows;
    const ack = await admin.post('/api/devices/xt1/alarm-acknowledge/', {
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
      alarm_ids: [above!.id],
      comment: 'Checked',
      client_type: 'WEB',
    });
    expect(ack.statusCode, ack.body).toBe(200);

    // Only now do the fan-out and the deliveries run (the workers are off).
    const events = (
      await t.db.execute<{ data: unknown }>(
        sql`SELECT data FROM pgboss.job
             WHERE name = ${WEBHOOK_EVENT_JOB} AND data->>'recordId' = ${recordId}
             ORDER BY created_on`,
      )
    ).rows.map((job) => jobCatalogue[WEBHOOK_EVENT_JOB].payload.parse(job.data));
    await fanOutAndDeliver(events, (hook.json() as { id: string }).id);

    const sent = receiver.received
      .filter((r) => r.path === '/ack-moment')
      .map(
        (r) =>
          JSON.parse(r.body) as {
            event: string;
            data: { alarm: { id: string; acknowledged: boolean; acknowledged_at: string | null } };
          },
      );
    const of = (event: string, id: string) =>
      sent.filter((b) => b.event === event && b.data.alarm.id === id).map((b) => b.data.alarm);
    expect(of('alarm.raised', above!.id)).toEqual([
      expect.objectContaining({ acknowledged: false, acknowledged_at: null }),
    ]);
    expect(of('alarm.acknowledged', above!.id)).toEqual([
      expect.objectContaining({ acknowledged: true, acknowledged_at: expect.any(String) }),
    ]);
  });
});

describe('webhook addresses (SSRF) [FEAT-WEBHOOKS]', () => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp({ jobs: { runWorkers: false } });
    ({ client: admin } = await t.signIn({ role: 'Administrator' }));
  });
  afterAll(() => t.close());

  it.each([
    'https://127.0.0.1/hook',
    'https://10.1.2.3/hook',
    'https://[::1]/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://localhost/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::127.0.0.1]/hook',
    'https://[64:ff9b::a00:1]/hook',
    'https://2130706433/hook',
    'https://100.64.0.1/hook',
    'https://192.168.1.10/hook',
    'https://[fd00::1]/hook',
    'http://example.com/hook',
    'not a url',
  ])('refuses %s with 400 naming url', async (url) => {
    const res = await admin.post(HOOKS, { url, events: ['alarm.raised'] });
    expect(res.statusCode, res.body).toBe(400);
    expect(
      (res.json() as { fields?: Record<string, unknown> }).fields ?? res.json(),
    ).toHaveProperty('url');
  });
});

import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../src/db/schema-integrations';
import { useServerProcesses } from './server-process';
import { epoch, insertToken, serial, xt1Body } from './shipment-factories';
import { eventually, freePort } from './smtp-sink';
import { startReceiver, validSignature, type Received, type Receiver } from './webhook-receiver';

/**
 * Webhooks survive a killed server (SIGKILL, then a new server process on the
 * same database). Delivery is at least once: receivers deduplicate by
 * `X-Coldtrace-Delivery`, which is the same on every attempt.
 */

type ServerProcesses = ReturnType<typeof useServerProcesses>;

/** An administrator with a user token, and a POST to the server on `port` as them. */
async function apiAs(processes: ServerProcesses) {
  const t = processes.t;
  const admin = await t.createUser({ role: 'Administrator' });
  const token = await insertToken(t.db, admin.id, admin.orgs[0]!.id);
  return (port: number) => async (url: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };
}

type Post = ReturnType<Awaited<ReturnType<typeof apiAs>>>;

/** `records` records with one excursion above each, through the device API: one alarm each. */
async function raiseAlarms(post: Post, records: number) {
  const start = epoch(new Date()) - 3600;
  for (let i = 0; i < records; i++) {
    await post(
      '/api/devices/xt1/scans/',
      xt1Body(serial(), {
        start_time_seconds: start,
        timestamp: new Date((start + 600) * 1000).toISOString(),
        temps: [5, 5, 11, 12, 5],
      }),
    );
  }
}

/** Resolves when no `webhook.deliver` job is in one of `states` (default: queued, retrying or running). */
async function noDeliverJobs(
  processes: ServerProcesses,
  timeoutMs: number,
  states = ['created', 'retry', 'active'],
) {
  await eventually(
    () =>
      processes.t.db.execute<{ n: string }>(
        sql`SELECT count(*)::text AS n FROM pgboss.job
             WHERE name = 'webhook.deliver' AND state::text IN ${states}`,
      ),
    (result) => result.rows[0]!.n === '0',
    timeoutMs,
  );
}

const deliveryId = (r: Received) => r.headers['x-coldtrace-delivery'] as string;

/** Every request is signed with the secret, its body's id its `X-Coldtrace-Delivery`. */
function expectSigned(receiver: Receiver, secret: string) {
  for (const r of receiver.received) {
    expect(validSignature(secret, r.body, r.headers['x-coldtrace-signature'] as string)).toBe(true);
    expect((JSON.parse(r.body) as { id: string }).id).toBe(deliveryId(r));
  }
}

/** The delivery ids the receiver acknowledged with a 2xx, one entry per acknowledgement, sorted. */
const acknowledgedIds = (receiver: Receiver) =>
  receiver.received
    .filter((r) => r.acknowledgedAt !== undefined)
    .map(deliveryId)
    .sort();

describe('webhook deliveries across a killed server [FEAT-WEBHOOKS, FEAT-DURABILITY]', () => {
  const processes = useServerProcesses('webhook-kill', { jobs: { runWorkers: false } });
  const receivers: Receiver[] = [];
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
  });
  /** The deliveries of one webhook. */
  const deliveriesOf = (webhookId: string) =>
    processes.t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId));

  /**
   * The server raises alarms whose deliveries fail (nothing listens on the
   * receiver's port yet), is killed, the receiver comes up, the server starts
   * again, and every event arrives, signed: each delivery id is acknowledged
   * exactly once, and no id it was not meant to get.
   */
  it(
    'delivers every event after a SIGKILL and a restart, each delivery id acknowledged once',
    { timeout: 150_000 },
    async () => {
      const RECORDS = 3;
      const as = await apiAs(processes);
      const receiverPort = await freePort();
      const port = await freePort();
      const env = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAY_SECONDS: '1' };
      let server = await processes.start(port, env);
      const post = as(port);
      const hook = (await post('/api/integrations/webhooks/', {
        url: `http://127.0.0.1:${receiverPort}/events`,
        events: ['alarm.raised'],
      })) as { id: string; secret: string };
      await raiseAlarms(post, RECORDS);

      // Every delivery exists and has failed at least twice (the port refuses)...
      await eventually(
        () => deliveriesOf(hook.id),
        (rows) =>
          rows.length === RECORDS && rows.every((r) => r.attempts >= 2 && r.status === 'pending'),
        60_000,
      );
      // ...and none is being attempted right now: kill.
      await noDeliverJobs(processes, 15_000, ['active']);
      server.child.kill('SIGKILL');
      await server.exited;

      const receiver = await startReceiver(receiverPort);
      receivers.push(receiver);
      server = await processes.start(port, env);
      const wanted = (await deliveriesOf(hook.id)).map((r) => r.id).sort();
      await noDeliverJobs(processes, 60_000);
      expectSigned(receiver, hook.secret);
      expect(acknowledgedIds(receiver)).toEqual(wanted);
      const after = await deliveriesOf(hook.id);
      expect(after.every((r) => r.status === 'delivered')).toBe(true);

      server.child.kill('SIGTERM');
      await server.exited;
    },
  );

  /**
   * The receiver takes the first POST and never answers; the server is killed
   * during that receive and a new one started. The attempt never got a 2xx, so
   * nothing was recorded: the job's lease (20 s) runs out, the queue's expiry
   * sweep (every 5-10 s) hands it back, and the delivery is sent again with the
   * same id. Each delivery id is acknowledged (2xx) exactly once.
   */
  it(
    'is sent again within about 30 s, and each delivery id is acknowledged once',
    { timeout: 90_000 },
    async () => {
      const RECORDS = 2;
      const as = await apiAs(processes);
      const receiver = await startReceiver();
      receivers.push(receiver);
      receiver.answer = () => 'stall';
      const port = await freePort();
      const env = { WEBHOOK_ALLOW_PRIVATE: 'true' };
      let server = await processes.start(port, env);
      const post = as(port);
      const hook = (await post('/api/integrations/webhooks/', {
        url: receiver.url,
        events: ['alarm.raised'],
      })) as { id: string; secret: string };
      await raiseAlarms(post, RECORDS);

      const stalled = (await eventually(
        () => receiver.received[0],
        (r) => r !== undefined,
        30_000,
      ))!;
      server.child.kill('SIGKILL');
      const killedAt = Date.now();
      await server.exited;
      receiver.answer = () => 200;
      server = await processes.start(port, env);

      const again = await eventually(
        () =>
          receiver.received.find(
            (r) => deliveryId(r) === deliveryId(stalled) && r.acknowledgedAt !== undefined,
          ),
        (r) => r !== undefined,
        45_000,
      );
      const seconds = (again!.acknowledgedAt! - killedAt) / 1000;
      console.info(
        `webhook delivery in flight at a SIGKILL: sent again ${seconds.toFixed(1)} s later`,
      );
      expect(seconds).toBeLessThan(40);

      await noDeliverJobs(processes, 30_000);
      const rows = await deliveriesOf(hook.id);
      expect(rows).toHaveLength(RECORDS);
      // The stalled attempt never committed: one attempt logged per delivery, each delivered.
      expect(rows.map((r) => [r.status, r.attempts])).toEqual(rows.map(() => ['delivered', 1]));
      expect(stalled.acknowledgedAt).toBeUndefined();
      expectSigned(receiver, hook.secret);
      expect(acknowledgedIds(receiver)).toEqual(rows.map((r) => r.id).sort());
      // On the wire the stalled id came twice, with the same body.
      const copies = receiver.received.filter((r) => deliveryId(r) === deliveryId(stalled));
      expect(copies.map((r) => r.body)).toEqual([stalled.body, stalled.body]);

      server.child.kill('SIGTERM');
      await server.exited;
    },
  );
});

import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../src/db/schema-integrations';
import { useServerProcesses } from './server-process';
import { epoch, insertToken, serial, xt1Body } from './shipment-factories';
import { eventually, freePort } from './smtp-sink';
import { startReceiver, validSignature, type Receiver } from './webhook-receiver';

/**
 * Webhooks survive a killed server: the server process raises alarms whose
 * deliveries fail (nothing listens on the receiver's port yet), is killed
 * with SIGKILL, the receiver comes up, the server starts again, and every
 * event arrives, signed; the receiver, deduplicating by delivery id (delivery
 * is at least once), sees each delivery id exactly once and no id it was not
 * meant to get.
 */

const RECORDS = 3;

describe('webhook deliveries queued when the server is killed', () => {
  const processes = useServerProcesses('webhook-kill', { jobs: { runWorkers: false } });
  let receiver: Receiver | undefined;
  afterAll(async () => {
    await receiver?.close();
  });

  it(
    'delivers every event after a SIGKILL and a restart, each delivery id once after dedupe',
    { timeout: 150_000 },
    async () => {
      const t = processes.t;
      const admin = await t.createUser({ role: 'Administrator' });
      const org = admin.orgs[0]!;
      const token = await insertToken(t.db, admin.id, org.id);
      const receiverPort = await freePort();
      const port = await freePort();
      const env = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAY_SECONDS: '1' };
      let server = await processes.start(port, env);
      const post = async (url: string, body: unknown) => {
        const res = await fetch(`http://127.0.0.1:${port}${url}`, {
          method: 'POST',
          headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(res.status, await res.clone().text()).toBe(200);
        return (await res.json()) as Record<string, unknown>;
      };
      const hook = (await post('/api/integrations/webhooks/', {
        url: `http://127.0.0.1:${receiverPort}/events`,
        events: ['alarm.raised'],
      })) as { secret: string };

      // One excursion above on each record, through the device API.
      const start = epoch(new Date()) - 3600;
      for (let i = 0; i < RECORDS; i++) {
        await post(
          '/api/devices/xt1/scans/',
          xt1Body(serial(), {
            start_time_seconds: start,
            timestamp: new Date((start + 600) * 1000).toISOString(),
            temps: [5, 5, 11, 12, 5],
          }),
        );
      }

      // Every delivery exists and has failed at least twice (the port refuses)...
      await eventually(
        () => t.db.select().from(webhookDeliveries),
        (rows) =>
          rows.length === RECORDS && rows.every((r) => r.attempts >= 2 && r.status === 'pending'),
        60_000,
      );
      // ...and none is being attempted right now: kill.
      await eventually(
        () =>
          t.db.execute<{ n: string }>(
            sql`SELECT count(*)::text AS n FROM pgboss.job WHERE name = 'webhook.deliver' AND state = 'active'`,
          ),
        (result) => result.rows[0]!.n === '0',
      );
      server.child.kill('SIGKILL');
      await server.exited;

      receiver = await startReceiver(receiverPort);
      server = await processes.start(port, env);
      const rows = await t.db.select().from(webhookDeliveries);
      const wanted = rows.map((r) => r.id).sort();
      await eventually(
        async () => new Set(receiver!.received.map((r) => r.headers['x-coldtrace-delivery'])).size,
        (n) => n >= RECORDS,
        60_000,
      );
      // Retries still due would show up now.
      await new Promise((r) => setTimeout(r, 3000));
      // The receiver's dedupe: the first body per delivery id; each verified.
      const seen = new Map<string, string>();
      for (const r of receiver.received) {
        expect(
          validSignature(hook.secret, r.body, r.headers['x-coldtrace-signature'] as string),
        ).toBe(true);
        const id = r.headers['x-coldtrace-delivery'] as string;
        expect((JSON.parse(r.body) as { id: string }).id).toBe(id);
        if (!seen.has(id)) seen.set(id, r.body);
      }
      expect([...seen.keys()].sort()).toEqual(wanted);
      // At least once: a copy may repeat on the wire, always the same body.
      for (const r of receiver.received) {
        expect(r.body).toBe(seen.get(r.headers['x-coldtrace-delivery'] as string));
      }
      const after = await t.db.select().from(webhookDeliveries);
      expect(after.every((r) => r.status === 'delivered')).toBe(true);

      server.child.kill('SIGTERM');
      await server.exited;
    },
  );
});

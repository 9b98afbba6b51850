import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { userOrgSettings } from '../src/db/schema';
import { mailOutbox } from '../src/db/schema-mail';
import { uid } from './helpers';
import { useServerProcesses } from './server-process';
import { epoch, insertToken, serial, xt1Body } from './shipment-factories';
import { eventually, freePort, startSmtpSink, type SmtpSink } from './smtp-sink';

/**
 * Alarm e-mails survive a killed server: the server process raises alarms
 * whose e-mails it cannot deliver (the SMTP port refuses connections), is
 * killed with SIGKILL, the mail server comes up, the server starts again,
 * and every e-mail arrives exactly once.
 */

const RECORDS = 4;
const SUBSCRIBERS = 3;

describe('alarm e-mails queued when the server is killed [RULE-NOTIFY-4, FEAT-DURABILITY]', () => {
  // The in-process app only reads and seeds the database: its workers stay off.
  const processes = useServerProcesses('mail-kill', { jobs: { runWorkers: false } });
  let sink: SmtpSink | undefined;
  afterAll(async () => {
    await sink?.close();
  });

  it(
    'delivers every queued e-mail exactly once after a SIGKILL and a restart',
    { timeout: 120_000 },
    async () => {
      const t = processes.t;
      const admin = await t.createUser({ role: 'Administrator' });
      const org = admin.orgs[0]!;
      const token = await insertToken(t.db, admin.id, org.id);
      const subscribers: string[] = [];
      for (let i = 0; i < SUBSCRIBERS; i++) {
        const user = await t.createUser({
          role: 'Viewer',
          orgs: [org],
          email: `sub${i}-${uid()}@example.test`,
        });
        await t.db
          .insert(userOrgSettings)
          .values({ userId: user.id, organizationId: org.id, alarmNotifyAnyScans: true });
        subscribers.push(user.email.toLowerCase());
      }

      const smtpPort = await freePort();
      const port = await freePort();
      const env = {
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_RETRY_DELAY_SECONDS: '1',
        MAIL_FROM: 'Coldtrace <no-reply@ct.test>',
      };
      let server = await processes.start(port, env);
      const post = async (url: string, body: unknown) => {
        const res = await fetch(`http://127.0.0.1:${port}${url}`, {
          method: 'POST',
          headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(res.status, await res.clone().text()).toBe(200);
        return (await res.json()) as { record_id: string };
      };

      // High excursions on several records, through the device API.
      const start = epoch(new Date()) - 3600;
      const recordIds: string[] = [];
      for (let i = 0; i < RECORDS; i++) {
        const { record_id } = await post(
          '/api/devices/xt1/scans/',
          xt1Body(serial(), {
            start_time_seconds: start,
            timestamp: new Date((start + 600) * 1000).toISOString(),
            temps: [5, 5, 11, 12, 5],
          }),
        );
        recordIds.push(record_id);
      }

      // Every e-mail is queued and has failed at least twice (the SMTP port refuses)...
      const expected = RECORDS * SUBSCRIBERS;
      await eventually(
        () => t.db.select().from(mailOutbox),
        (rows) =>
          rows.length === expected && rows.every((r) => r.attempts >= 2 && r.status === 'queued'),
        60_000,
      );
      // ...and none is being attempted right now (the next retry is seconds away): kill.
      await eventually(
        () =>
          t.db.execute<{ n: string }>(
            sql`SELECT count(*)::text AS n FROM pgboss.job WHERE name = 'mail.send' AND state = 'active'`,
          ),
        (result) => result.rows[0]!.n === '0',
      );
      server.child.kill('SIGKILL');
      await server.exited;

      sink = await startSmtpSink(smtpPort);
      server = await processes.start(port, env);
      await eventually(
        () => sink!.messages.length,
        (n) => n >= expected,
        60_000,
      );
      // Retries still due would show up now; nothing more arrives.
      await new Promise((r) => setTimeout(r, 3000));
      expect(sink.messages).toHaveLength(expected);
      const pairs = sink.messages.map((m) => {
        const record = recordIds.find((id) => m.subject?.startsWith(`Record ${id} has an alarm`));
        return `${record}:${m.envelopeTo.map((a) => a.toLowerCase()).join(',')}`;
      });
      const wanted = recordIds.flatMap((id) => subscribers.map((s) => `${id}:${s}`));
      expect(pairs.sort()).toEqual(wanted.sort());
      const rows = await t.db.select().from(mailOutbox);
      expect(rows.every((r) => r.status === 'sent')).toBe(true);

      server.child.kill('SIGTERM');
      await server.exited;
    },
  );
});

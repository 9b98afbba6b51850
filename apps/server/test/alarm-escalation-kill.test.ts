import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { notificationLog, notificationSettings } from '../src/db/schema-alarm-mail';
import { alarms } from '../src/db/schema-shipments';
import { ALARM_ESCALATION_JOB } from '../src/jobs/catalogue';
import { uid } from './helpers';
import { useServerProcesses } from './server-process';
import { epoch, insertToken, serial, xt1Body } from './shipment-factories';
import { eventually, freePort, startSmtpSink, type SmtpSink } from './smtp-sink';

/**
 * A reminder survives a killed server (issue 14, docs/decisions/escalation.md):
 * the server process raises an alarm under a setting that reminds after one
 * minute, is killed with SIGKILL before the reminder is due, the reminder
 * falls due (and a second copy of its job is queued, as a crash mid-run
 * would leave), the server starts again, and the reminder arrives once.
 */

describe('escalation across a killed server [FEAT-ESCALATION, FEAT-DURABILITY]', () => {
  const processes = useServerProcesses('escalation-kill', { jobs: { runWorkers: false } });
  let sink: SmtpSink | undefined;
  afterAll(async () => {
    await sink?.close();
  });

  it(
    'sends a due reminder exactly once after a SIGKILL and a restart',
    { timeout: 120_000 },
    async () => {
      const t = processes.t;
      const admin = await t.createUser({ role: 'Administrator' });
      const org = admin.orgs[0]!;
      const token = await insertToken(t.db, admin.id, org.id);
      const qa = `qa-${uid()}@example.test`;
      const [setting] = await t.db
        .insert(notificationSettings)
        .values({
          organizationId: org.id,
          notificationType: 'Alarm',
          status: 'Enabled',
          toList: [qa],
          remindAfterMinutes: 1,
        })
        .returning();

      sink = await startSmtpSink();
      const port = await freePort();
      const env = {
        SMTP_URL: sink.url,
        MAIL_RETRY_DELAY_SECONDS: '1',
        MAIL_FROM: 'Coldtrace <no-reply@ct.test>',
      };
      let server = await processes.start(port, env);
      const start = epoch(new Date()) - 3600;
      const res = await fetch(`http://127.0.0.1:${port}/api/devices/xt1/scans/`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(
          xt1Body(serial(), {
            start_time_seconds: start,
            timestamp: new Date((start + 600) * 1000).toISOString(),
            temps: [5, 5, 11, 12, 5],
          }),
        ),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const recordId = Number(((await res.json()) as { record_id: string }).record_id);

      // The alarm is e-mailed and its reminder scheduled a minute later: kill before it is due.
      const pending = () =>
        t.db.execute<{ id: string }>(
          sql`select id from pgboss.job where name = ${ALARM_ESCALATION_JOB}
             and data->>'organizationId' = ${org.id} and state = 'created'`,
        );
      await eventually(pending, (r) => r.rows.length === 1, 30_000);
      server.child.kill('SIGKILL');
      await server.exited;
      const about = (m: { subject?: string }) =>
        (m.subject ?? '').startsWith(`Reminder: record ${recordId} `);
      expect(sink.messages.filter(about)).toEqual([]);

      // While it is down the reminder falls due, and a second copy of the job waits.
      const [alarm] = await t.db.select().from(alarms).where(eq(alarms.recordId, recordId));
      await t.ownerDb
        .update(alarms)
        .set({ created: new Date(alarm!.created.getTime() - 5 * 60_000) })
        .where(eq(alarms.id, alarm!.id));
      await t.ownerDb.execute(
        sql`update pgboss.job set start_after = now() where name = ${ALARM_ESCALATION_JOB}
           and data->>'organizationId' = ${org.id}`,
      );
      await t.app.jobs.send(ALARM_ESCALATION_JOB, {
        organizationId: org.id,
        alarmId: alarm!.id,
        settingId: setting!.id,
        step: 'reminder',
      });

      server = await processes.start(port, env);
      await eventually(
        () => sink!.messages.filter(about).length,
        (n) => n >= 1,
        60_000,
      );
      await eventually(pending, (r) => r.rows.length === 0, 30_000);
      await new Promise((r) => setTimeout(r, 3000));
      const mails = sink.messages.filter(about);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.envelopeTo.map((a) => a.toLowerCase())).toEqual([qa.toLowerCase()]);
      const entries = await t.db
        .select()
        .from(notificationLog)
        .where(eq(notificationLog.alarmId, alarm!.id));
      expect(entries.map((e) => e.step)).toEqual(['reminder']);

      server.child.kill('SIGTERM');
      await server.exited;
    },
  );
});

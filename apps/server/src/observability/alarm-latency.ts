import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { metrics } from './metrics';

/**
 * The alarm figures that need a look at the alarms themselves (their kind,
 * when they were raised): one small read by primary key, after the work that
 * reports it, outside its transaction. "Raised" is the alarm row's `created`:
 * the server time the upload that raised it began (ingest writes it), so the
 * delay includes that upload's own transaction up to its commit. Both ends are
 * this server's clock, not the database's. Neither function ever throws: a
 * figure that cannot be read is left out, and no job fails or retries for it.
 */

async function read<R extends Record<string, unknown>>(db: Db, query: SQL): Promise<R[]> {
  try {
    return (await db.execute<R>(query)).rows as R[];
  } catch {
    return [];
  }
}

/** The `alarm.raised` job's work committed: the alarms by kind, and the bell's delay. */
export async function alarmsRaisedNotified(
  db: Db,
  event: { organizationId: string; alarmIds: readonly number[] },
): Promise<void> {
  if (event.alarmIds.length === 0) return;
  const ids = `{${event.alarmIds.map(Number).join(',')}}`;
  const rows = await read<{ kind: string; n: number; raised_ms: number }>(
    db,
    sql`SELECT kind, count(*)::int AS n,
               (EXTRACT(EPOCH FROM min(created)) * 1000)::float8 AS raised_ms
          FROM alarms
         WHERE organization_id = ${event.organizationId} AND id = ANY(${ids}::bigint[])
         GROUP BY kind`,
  );
  let earliest = Infinity;
  for (const row of rows) {
    metrics.alarmsRaised(row.kind, row.n);
    earliest = Math.min(earliest, Number(row.raised_ms));
  }
  if (Number.isFinite(earliest)) metrics.alarmNotified('bell', (Date.now() - earliest) / 1000);
}

/** The dedupe key alarm-mail gives an alarm e-mail: `alarm-mail:<event id>:<message>`. */
const ALARM_MAIL_KEY = /^alarm-mail:(\d+):/;

/**
 * An e-mail was accepted by the SMTP server: when it is an alarm's, the delay
 * from the earliest alarm of its event being raised. Called without awaiting
 * (on the pool, not the mail's transaction: a failed read there would abort it).
 */
export async function alarmMailSent(
  db: Db,
  mail: { organizationId: string | null; dedupeKey: string | null },
): Promise<void> {
  const eventId = mail.dedupeKey === null ? undefined : ALARM_MAIL_KEY.exec(mail.dedupeKey)?.[1];
  if (eventId === undefined || mail.organizationId === null) return;
  const rows = await read<{ raised_ms: number | null }>(
    db,
    sql`SELECT (EXTRACT(EPOCH FROM min(a.created)) * 1000)::float8 AS raised_ms
          FROM alarm_mail_events e
          JOIN alarms a ON a.id = ANY(e.alarm_ids) AND a.organization_id = e.organization_id
         WHERE e.organization_id = ${mail.organizationId} AND e.id = ${Number(eventId)}
           AND e.notification_type = 'Alarm'`,
  );
  const raised = rows[0]?.raised_ms;
  if (raised != null) metrics.alarmNotified('email', (Date.now() - Number(raised)) / 1000);
}

import type { Db } from '../../db/client';
import type { JobQueue } from '../../jobs/queue';

/**
 * The alarm fan-out's entry for the modules that raise alarms (ingest): a job
 * sent in the transaction that inserted the alarms, so it exists exactly when
 * they do. Its worker (`fanout.ts`) makes the bell notifications and hands the
 * event to the alarm e-mails.
 */

export const ALARM_RAISED_JOB = 'alarm.raised';

export interface AlarmRaisedEvent {
  organizationId: string;
  recordId: number;
  alarmIds: number[];
}

export type AlarmEventSender = Pick<JobQueue, 'send'>;

export async function announceAlarmsRaised(
  jobs: AlarmEventSender,
  tx: Db,
  event: AlarmRaisedEvent,
): Promise<void> {
  await jobs.send(ALARM_RAISED_JOB, event, { tx });
}

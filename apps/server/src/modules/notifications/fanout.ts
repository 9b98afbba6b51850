import type { Db } from '../../db/client';
import * as repo from './repository';

/**
 * The bell's part of the `alarm.raised` job (composed with the alarm e-mails
 * in `workers.ts`, in one transaction): one notification per member of
 * the organization who may see records and receive notifications.
 * Idempotent: a notification is unique per (user, alarm), so a job run again
 * makes no second one.
 */
export async function notifyAlarmsRaised(
  tx: Db,
  event: { organizationId: string; recordId: number; alarmIds: readonly number[] },
): Promise<void> {
  await repo.createNotifications(tx, event);
}

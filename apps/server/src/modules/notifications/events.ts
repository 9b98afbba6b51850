/**
 * Raised alarms are published through the job catalogue (`jobs/catalogue.ts`,
 * `publishAlarmsRaised`). This type-only alias remains for files being split
 * at the same time; import `AlarmEventSender` from the catalogue instead.
 */
export type { AlarmEventSender } from '../../jobs/catalogue';

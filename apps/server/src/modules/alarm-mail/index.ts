/** The alarm-mail module's entry for other modules: ingest announces trip changes, the alarm fan-out calls the hook. */
export { announceTripChange } from './trip-events';
export { onAlarmRaisedEmail } from './hooks';

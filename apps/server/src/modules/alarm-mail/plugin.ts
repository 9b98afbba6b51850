/**
 * What the top of the house mounts from the alarm-mail module (`app.ts`, `workers.ts`):
 * its routes and job workers. Other modules import its entry, `index.ts`.
 */
export { onAlarmRaisedEmail } from './hooks';
export { tripEventWorker } from './worker';
export { alarmEscalationWorker } from './escalation';
export { summaryWorker } from './summary';
export { alarmMailModule } from './routes';

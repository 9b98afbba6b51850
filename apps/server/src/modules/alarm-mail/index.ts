/** The alarm-mail module's entry for other modules: the jobs' workers (`jobs/workers.ts`). */
export { onAlarmRaisedEmail } from './hooks';
export { tripEventWorker } from './worker';
export { alarmEscalationWorker } from './escalation';
export { summaryWorker } from './summary';
export { alarmMailModule } from './routes';

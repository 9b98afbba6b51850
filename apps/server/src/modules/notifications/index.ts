/** The notifications module's entry for other modules. */
export { dismissForUser } from './repository';
export { ALARM_RAISED_JOB, announceAlarmsRaised, type AlarmRaisedEvent } from './events';
export { verifyChangeSignature, verifySignaturePassword, type ChangeSignature } from './signature';

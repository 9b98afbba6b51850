/** The notifications module's entry for other modules. */
export { clearForAlarms, dismissForUser } from './repository';
export { notifyAlarmsRaised } from './fanout';

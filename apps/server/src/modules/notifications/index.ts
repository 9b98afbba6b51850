/** The notifications module's entry for other modules. */
export { clearForAlarms, dismissForUser } from './repository';
export { notifyAlarmsRaised } from './fanout';
export {
  API_KEY_CANNOT_SIGN,
  secondFactorNote,
  verifyChangeSignature,
  verifySignaturePassword,
  type ChangeSignature,
} from './signature';
export { notificationsRoutes } from './routes';

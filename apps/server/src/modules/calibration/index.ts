/**
 * The calibration module's entry: other modules import it from here only (issue 12).
 */
export { renderCertificatePdf } from './certificate-pdf';
export { calibrationRoutes } from './routes';
export { checkStartAllowed, type StartCheck } from './lifecycle';

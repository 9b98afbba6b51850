/**
 * The calibration module's entry: other modules import it from here only (issue 12).
 */
export { certificateUrl } from './urls';
export { renderCertificatePdf } from './certificate-pdf';

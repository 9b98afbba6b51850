/**
 * The calibration module's entry: other modules import it from here only (issue 12).
 */
export { checkStartAllowed, type StartCheck } from './lifecycle';

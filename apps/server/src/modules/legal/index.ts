/**
 * The legal module's entry: other modules import it from here only (issue 12).
 */
export { hasAgreedToActiveTerms } from './repository';
export { termsGate } from './terms-gate';
export { findActiveTerms } from './repository';

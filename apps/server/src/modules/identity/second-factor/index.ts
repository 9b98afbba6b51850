/**
 * The second-factor module's entry: other modules import it from here only (issue 12).
 */
export { createSecondFactorService, type SecondFactorService } from './service';

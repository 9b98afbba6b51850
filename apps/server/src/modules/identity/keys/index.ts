/**
 * The keys module's entry: other modules import it from here only (issue 12).
 */
export { apiKeyPrincipal } from './service';

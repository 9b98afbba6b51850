/**
 * The tokens module's entry: other modules import it from here only (issue 12).
 */
export { revokeUserCredentials, tokenPrincipal } from './service';
export { deleteExpiredTokens as deleteExpiredUserTokens } from './repository';

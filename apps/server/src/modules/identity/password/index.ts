/**
 * The password module's entry: other modules import it from here only (issue 12).
 */
export { escapeHtml, htmlMail, queueWelcomeMail } from './welcome';
export { publicOrigin } from './links';
export { consumeToken, hashToken, issueToken, revokeUserTokens } from './tokens';
export { deleteExpiredTokens as deleteExpiredPasswordTokens } from './tokens';
export { passwordProblem } from './rules';

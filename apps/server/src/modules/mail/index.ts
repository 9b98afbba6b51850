/**
 * The mail module's entry: other modules import it from here only (issue 12).
 */
export { queueMail } from './outbox';
export {
  scrubSecretLinks,
  storedSecretLinks,
  type SecretLinkFilter,
  type StoredSecretLink,
} from './scrub';
export { type SecretLinkRoute } from './secret-links';

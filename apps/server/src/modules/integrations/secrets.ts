import { createHmac, randomBytes } from 'node:crypto';
import { openSecret, sealSecret } from '../../kernel/secret-box';

/**
 * Webhook signing secrets: 32 random bytes (hex) shown once; stored
 * AES-256-GCM encrypted with a key derived (HKDF-SHA256) from the server's
 * SECRET_KEY (`kernel/secret-box.ts`), because signing needs the secret itself
 * (a hash would not do). A database dump alone does not reveal them.
 */

export const newWebhookSecret = () => randomBytes(32).toString('hex');

const PURPOSE = 'coldtrace webhook secrets v1';

export const encryptSecret = (secretKey: string, secret: string): string =>
  sealSecret(secretKey, PURPOSE, secret);

export const decryptSecret = (secretKey: string, stored: string): string =>
  openSecret(secretKey, PURPOSE, stored);

/** `sha256=<hex HMAC-SHA256 of text with the secret>`. */
export function signature(secret: string, text: string): string {
  return `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;
}

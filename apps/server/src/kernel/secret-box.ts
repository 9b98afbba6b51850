import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the server must read back (webhook signing secrets, TOTP secrets),
 * stored AES-256-GCM encrypted with a key derived (HKDF-SHA256) from the
 * server's SECRET_KEY and a purpose, so each kind of secret has its own key and
 * a database dump alone reveals none of them. Stored as `v1.<iv>.<tag>.<data>`
 * (base64url).
 */

function keyOf(secretKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, '', purpose, 32));
}

export function sealSecret(secretKey: string, purpose: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secretKey, purpose), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function openSecret(secretKey: string, purpose: string, stored: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) {
    throw new Error(`unreadable secret (${purpose})`);
  }
  const decipher = createDecipheriv(
    'aes-256-gcm',
    keyOf(secretKey, purpose),
    Buffer.from(iv, 'base64url'),
  );
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(data, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

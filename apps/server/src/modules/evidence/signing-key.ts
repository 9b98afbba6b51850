import {
  createHash,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

/**
 * The server's evidence signing key (docs/decisions/evidence-chain.md): an
 * Ed25519 key derived from SECRET_KEY (HKDF-SHA256), so that it lives where
 * the secret key lives (`DATA_DIR/secret_key` or the environment, copied by
 * `npm run backup`), never in the database, and every instance of one
 * installation signs alike. Changing SECRET_KEY changes it: anchors signed
 * before then no longer verify as this server's.
 */

/** PKCS #8 DER of an Ed25519 private key, up to its 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface SigningKey {
  privateKey: KeyObject;
  /** SPKI DER, base64: what anchors and dossiers carry, and GET /api/evidence/key/ publishes. */
  publicKey: string;
  /** The first 16 hex digits of the public key's SHA-256: a short name for it. */
  keyId: string;
}

export function signingKeyFrom(secretKey: string): SigningKey {
  return keyFromSeed(hkdfSync('sha256', secretKey, 'coldtrace', 'evidence signing key v1', 32));
}

/**
 * An organization's dossier key (issue 37 item 2): derived like the server's,
 * with the organization's id in the HKDF info, so each organization signs its
 * dossiers with a key of its own and nothing needs storing.
 */
export function organizationKeyFrom(secretKey: string, organizationId: string): SigningKey {
  return keyFromSeed(
    hkdfSync('sha256', secretKey, 'coldtrace', `dossier signing key v1 ${organizationId}`, 32),
  );
}

function keyFromSeed(seedBytes: ArrayBuffer): SigningKey {
  const seed = Buffer.from(seedBytes);
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return {
    privateKey,
    publicKey: spki.toString('base64'),
    keyId: createHash('sha256').update(spki).digest('hex').slice(0, 16),
  };
}

export const signText = (key: SigningKey, text: string | Buffer) =>
  sign(null, typeof text === 'string' ? Buffer.from(text, 'utf8') : text, key.privateKey).toString(
    'base64',
  );

/** Whether `signature` (base64) is the Ed25519 signature of `text` by `publicKey` (SPKI base64). */
export function signatureValid(publicKey: string, text: string, signature: string): boolean {
  try {
    const key = createPublicKey({
      key: Buffer.from(publicKey, 'base64'),
      format: 'der',
      type: 'spki',
    });
    return verify(null, Buffer.from(text, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

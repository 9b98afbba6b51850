import { createHmac, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { RECOVERY_CODE_COUNT } from '@coldtrace/contract';

/**
 * TOTP (RFC 6238 with the authenticator apps' defaults: SHA-1, 6 digits, 30
 * seconds) by otplib, QR codes by qrcode, and recovery codes. No state here:
 * the service keeps the last accepted time step and the codes' hashes.
 */

/** Seconds per code. */
export const TOTP_PERIOD_SECONDS = 30;
/** A code of the step before or after the server's is accepted too (clock drift, typing time). */
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;

export const newTotpSecret = (): string => generateSecret();

/** The otpauth:// URI an authenticator app reads (issuer Coldtrace, the user's login as label). */
export const otpauthUri = (secret: string, label: string): string =>
  generateURI({ issuer: 'Coldtrace', label, secret });

/** The QR code of `text` as a data: URL of an SVG image. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** A code as typed, without spaces and dashes, lower case. */
export const normalizedCode = (code: string): string => code.replace(/[\s-]/g, '').toLowerCase();

/** Six digits: an authenticator code; anything else is read as a recovery code. */
export const isTotpShaped = (code: string): boolean => /^\d{6}$/.test(normalizedCode(code));

/**
 * The time step of `code` if it is the secret's code within one step of `now`
 * and of a step after `afterStep` (a code, once used, is refused: no replay);
 * null otherwise.
 */
export async function acceptedStep(
  secret: string,
  code: string,
  afterStep: number | null,
  now: Date,
): Promise<number | null> {
  if (!isTotpShaped(code)) return null;
  const epoch = Math.floor(now.getTime() / 1000);
  // No acceptable step is after it (a stored step ahead of a clock set back): otplib would throw.
  const latest = Math.floor((epoch + TOLERANCE_SECONDS) / TOTP_PERIOD_SECONDS);
  if (afterStep !== null && afterStep >= latest) return null;
  const result = await verify({
    secret,
    token: normalizedCode(code),
    epoch,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Lower-case letters and digits without look-alikes (no 0/o, 1/l/i). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** One recovery code: `xxxxx-xxxxx`, 10 characters of 31 (about 49 bits). */
export function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

export const newRecoveryCodes = (): string[] =>
  Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);

/**
 * What is stored of a recovery code: HMAC-SHA256 keyed by SECRET_KEY of the
 * normalized code, so a database dump alone does not let anyone test guesses.
 */
export const recoveryCodeHash = (secretKey: string, code: string): string =>
  createHmac('sha256', `coldtrace recovery codes v1:${secretKey}`)
    .update(normalizedCode(code))
    .digest('hex');

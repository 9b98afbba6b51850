import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_COOKIE } from '../../../kernel/context';
import { constantTimeEqual } from './cookies';

/**
 * Device cookies (OWASP "Slow brute-force attacks: device cookies"): after a
 * successful sign-in the browser gets a long-lived, HttpOnly cookie naming the
 * user, signed with HMAC-SHA256 under the server's SECRET_KEY. A sign-in (or
 * another password check) that presents a valid one for its account is not
 * subject to the account's throttling, only to the cookie's own failure
 * limit, so a stranger's wrong passwords cannot lock a known user out.
 *
 * The cookie holds one entry per user who signed in on the browser (the most
 * recent few): `userId.deviceId.issuedAtSeconds.mac`. `deviceId` is random:
 * failures are counted per device id. The signature covers the user's
 * password hash, so a password change or reset ends the trust of every
 * browser at once.
 */

/** How long a browser stays known after its last successful sign-in. */
export const DEVICE_COOKIE_DAYS = 180;
/** Users remembered per browser (a shared workstation). */
const MAX_ENTRIES = 5;
const SEPARATOR = '~';
const ENTRY = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

interface Entry {
  userId: string;
  deviceId: string;
  issuedAt: number;
  mac: string;
}

function mac(secretKey: string, e: Omit<Entry, 'mac'>, passwordHash: string): string {
  return createHmac('sha256', secretKey)
    .update(`coldtrace-device-cookie-v1|${e.userId}|${e.deviceId}|${e.issuedAt}|${passwordHash}`)
    .digest('base64url');
}

function parse(value: string | undefined): Entry[] {
  if (typeof value !== 'string' || value.length > 2048) return [];
  const entries: Entry[] = [];
  for (const part of value.split(SEPARATOR)) {
    const m = ENTRY.exec(part);
    if (m) entries.push({ userId: m[1]!, deviceId: m[2]!, issuedAt: Number(m[3]), mac: m[4]! });
  }
  return entries;
}

const format = (entries: Entry[]) =>
  entries.map((e) => `${e.userId}.${e.deviceId}.${e.issuedAt}.${e.mac}`).join(SEPARATOR);

/** The device id of a valid, unexpired entry for this user (signed over their current password), if any. */
export function trustedDeviceId(
  secretKey: string,
  cookie: string | undefined,
  user: { id: string; passwordHash: string },
  now: Date = new Date(),
): string | undefined {
  const oldest = Math.floor(now.getTime() / 1000) - DEVICE_COOKIE_DAYS * 86_400;
  for (const e of parse(cookie)) {
    if (e.userId !== user.id || e.issuedAt < oldest) continue;
    if (constantTimeEqual(e.mac, mac(secretKey, e, user.passwordHash))) return e.deviceId;
  }
  return undefined;
}

/** The cookie value after a successful sign-in of `user`: a fresh entry first, other users' entries kept. */
export function nextDeviceCookie(
  secretKey: string,
  cookie: string | undefined,
  user: { id: string; passwordHash: string },
  now: Date = new Date(),
): string {
  const fresh = {
    userId: user.id,
    deviceId: randomBytes(16).toString('base64url'),
    issuedAt: Math.floor(now.getTime() / 1000),
  };
  const others = parse(cookie).filter((e) => e.userId !== user.id);
  return format(
    [{ ...fresh, mac: mac(secretKey, fresh, user.passwordHash) }, ...others].slice(0, MAX_ENTRIES),
  );
}

/** Sent to the API only (sign-in, password change, e-signatures), never readable by the page's script. */
export function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, value: string): void {
  void reply.setCookie(DEVICE_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/api/',
    secure: request.protocol === 'https',
    maxAge: DEVICE_COOKIE_DAYS * 86_400,
  });
}

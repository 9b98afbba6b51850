import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/errors';
import type { Principal } from '../auth/principal';
import { clearAccountFailures, releaseAttempt, reserveAttempt } from '../auth/repository';

/**
 * Verifying the password an electronic signature re-enters (21 CFR Part 11
 * §11.200: both components at the first signing of a session... we ask at
 * every signing). Throttled with the sign-in counters (same account key,
 * same client address key): guessing a password through signatures costs
 * as much as through the sign-in form, and counts against it.
 */

export const WRONG_SIGNATURE_PASSWORD = 'The password is not correct.';

export async function verifySignaturePassword(
  app: FastifyInstance,
  principal: Principal,
  password: string,
  clientIp: string,
): Promise<void> {
  const { maxPerAccount, maxPerAddress, windowMinutes } = app.config.loginThrottle;
  const windowMs = windowMinutes * 60_000;
  const now = new Date();
  const keys = { account: `user:${principal.user.id}`, address: clientIp };
  const attempt = await reserveAttempt(app.db, keys, now, new Date(now.getTime() - windowMs), {
    account: maxPerAccount,
    address: maxPerAddress,
  });
  const over = attempt.throttled ? attempt.oldest : undefined;
  if (attempt.throttled) {
    const retryAfterS = Math.max(
      1,
      Math.ceil(((over?.getTime() ?? now.getTime()) + windowMs - now.getTime()) / 1000),
    );
    const minutes = Math.ceil(retryAfterS / 60);
    throw new AppError(
      'THROTTLED',
      `Too many wrong passwords. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      { password: 'Too many wrong passwords' },
      { 'retry-after': String(retryAfterS) },
    );
  }
  // A wrong password: the reserved attempt stays as the failure.
  if (!(await app.passwords.verify(principal.user.passwordHash, password))) {
    throw new AppError('INVALID_CREDENTIALS', WRONG_SIGNATURE_PASSWORD, {
      password: WRONG_SIGNATURE_PASSWORD,
    });
  }
  await releaseAttempt(app.db, attempt.ids);
  await clearAccountFailures(app.db, keys.account);
}

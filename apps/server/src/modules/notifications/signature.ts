import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/errors';
import type { Principal } from '../auth/principal';
import { createPasswordGuard, throttledError } from '../auth/throttle';

/**
 * Verifying the password an electronic signature re-enters (21 CFR Part 11
 * §11.200: both components at the first signing of a session... we ask at
 * every signing). Throttled by the sign-in mechanism (`auth/throttle.ts`:
 * the same device cookie, account and client address counters): guessing a
 * password through signatures costs as much as through the sign-in form, and
 * counts against it.
 */

export const WRONG_SIGNATURE_PASSWORD = 'The password is not correct.';

export async function verifySignaturePassword(
  app: FastifyInstance,
  principal: Principal,
  password: string,
  clientIp: string,
  deviceCookie?: string,
): Promise<void> {
  const guard = createPasswordGuard({ db: app.db, config: app.config });
  const result = await guard.attempt(
    { user: principal.user },
    { ip: clientIp, deviceCookie },
    () => app.passwords.verify(principal.user.passwordHash, password),
    (seconds) =>
      throttledError(seconds, 'Too many wrong passwords.', {
        password: 'Too many wrong passwords',
      }),
  );
  // A wrong password: the reserved attempt stays as the failure.
  if (!result.ok) {
    throw new AppError('INVALID_CREDENTIALS', WRONG_SIGNATURE_PASSWORD, {
      password: WRONG_SIGNATURE_PASSWORD,
    });
  }
}

import type { RuntimeConfig } from '../../../config';
import type { Db } from '../../../db/client';
import { AppError } from '../../../kernel/errors';
import { trustedDeviceId } from './device-cookie';
import * as repo from './repository';

/**
 * Throttling of every password check (sign-in, the old password of a password
 * change, the password an e-signature re-enters), one mechanism for all:
 *
 * - From a known device (a valid device cookie for the account, see
 *   `device-cookie.ts`): only the device's own failures count; after
 *   LOGIN_MAX_FAILURES_PER_ACCOUNT of them in 24 hours the cookie is no longer
 *   trusted and the attempt is treated as a stranger's.
 * - From anyone else: per account, LOGIN_MAX_FAILURES_PER_ACCOUNT failures
 *   (remembered 24 hours) pass freely, then one attempt after a growing delay
 *   since the last failure: 1, 2, 4, 8... minutes, at most
 *   LOGIN_THROTTLE_WINDOW_MINUTES. Per client address, at most
 *   LOGIN_MAX_FAILURES_PER_ADDRESS failures in LOGIN_THROTTLE_WINDOW_MINUTES.
 *
 * An admitted attempt is recorded as a failure before the password is checked,
 * under transaction-scoped advisory locks on its keys, so attempts sent in
 * parallel cannot all pass the count; a right password releases it.
 */

/** Failures of an account or a device are remembered this long. */
export const FAILURE_MEMORY_MS = 24 * 3_600_000;
/** The first delay once an account's free failures are spent; it doubles with each further failure. */
export const BACKOFF_BASE_MS = 60_000;

/** Milliseconds still to wait before the account admits another attempt (0: now). */
export function accountWaitMs(
  stats: repo.FailureStats,
  maxFailures: number,
  capMs: number,
  now: Date,
): number {
  if (stats.count < maxFailures || stats.latest === null) return 0;
  const steps = Math.min(stats.count - maxFailures, 30);
  const delay = Math.min(capMs, BACKOFF_BASE_MS * 2 ** steps);
  return Math.max(0, stats.latest.getTime() + delay - now.getTime());
}

/** Who is checked: a known user, or (sign-in only) a name that matches nobody. */
export type PasswordSubject =
  { user: { id: string; passwordHash: string } } | { unknownLogin: string };

export interface PasswordClient {
  ip: string;
  /** The `deviceid` cookie as sent. */
  deviceCookie: string | undefined;
}

export type AttemptResult = { ok: true; trustedDevice: boolean } | { ok: false };

export function createPasswordGuard({ db, config }: { db: Db; config: RuntimeConfig }) {
  const { maxPerAccount, maxPerAddress, windowMinutes } = config.loginThrottle;
  const windowMs = windowMinutes * 60_000;

  type Reservation = {
    ids: string[];
    device: repo.AttemptKey | undefined;
    account: repo.AttemptKey;
  };

  async function reserve(
    subject: PasswordSubject,
    client: PasswordClient,
    now: Date,
  ): Promise<Reservation | { retryAfterMs: number }> {
    const deviceId =
      'user' in subject
        ? trustedDeviceId(config.secretKey, client.deviceCookie, subject.user, now)
        : undefined;
    const device: repo.AttemptKey | undefined = deviceId
      ? { kind: 'device', key: deviceId }
      : undefined;
    const account: repo.AttemptKey = {
      kind: 'account',
      key: 'user' in subject ? `user:${subject.user.id}` : `login:${subject.unknownLogin}`,
    };
    const address: repo.AttemptKey = { kind: 'address', key: client.ip };
    const memorySince = new Date(now.getTime() - FAILURE_MEMORY_MS);
    return db.transaction(async (tx) => {
      await repo.lockAttemptKeys(tx, device ? [device, account, address] : [account, address]);
      await repo.forgetAttemptsBefore(
        tx,
        new Date(now.getTime() - Math.max(FAILURE_MEMORY_MS, windowMs)),
      );
      if (device && (await repo.failureStats(tx, device, memorySince)).count < maxPerAccount) {
        return { ids: await repo.recordAttempts(tx, [device], now), device, account };
      }
      const wait = accountWaitMs(
        await repo.failureStats(tx, account, memorySince),
        maxPerAccount,
        windowMs,
        now,
      );
      if (wait > 0) return { retryAfterMs: wait };
      const byAddress = await repo.failureStats(tx, address, new Date(now.getTime() - windowMs));
      if (byAddress.count >= maxPerAddress) {
        const oldest = byAddress.oldest?.getTime() ?? now.getTime();
        return { retryAfterMs: Math.max(1000, oldest + windowMs - now.getTime()) };
      }
      return {
        ids: await repo.recordAttempts(tx, [account, address], now),
        device: undefined,
        account,
      };
    });
  }

  return {
    /**
     * Runs `verify` (the password check) if the attempt is admitted, else throws
     * `throttled(seconds)`. A wrong password stays counted as a failure; a right
     * one is forgotten and clears the failures of the way it came in (the device's,
     * or the account's for a stranger's client).
     */
    async attempt(
      subject: PasswordSubject,
      client: PasswordClient,
      verify: () => Promise<boolean>,
      throttled: (retryAfterSeconds: number) => AppError,
    ): Promise<AttemptResult> {
      const reservation = await reserve(subject, client, new Date());
      if ('retryAfterMs' in reservation) {
        throw throttled(Math.max(1, Math.ceil(reservation.retryAfterMs / 1000)));
      }
      if (!(await verify())) return { ok: false };
      await repo.releaseAttempt(db, reservation.ids);
      await repo.clearFailures(db, reservation.device ?? reservation.account);
      return { ok: true, trustedDevice: reservation.device !== undefined };
    },
  };
}

export type PasswordGuard = ReturnType<typeof createPasswordGuard>;

/** A THROTTLED error (429) with Retry-After, in whole minutes for people. */
export function throttledError(
  retryAfterSeconds: number,
  what: string,
  fields?: Record<string, string>,
): AppError {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return new AppError(
    'THROTTLED',
    `${what} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    fields,
    { 'retry-after': String(retryAfterSeconds) },
  );
}

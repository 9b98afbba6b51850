import type { RuntimeConfig } from '../../../config';
import type { Db } from '../../../db/client';
import {
  clearFailures,
  failureStats,
  lockAttemptKeys,
  recordAttempts,
  releaseAttempt,
  type AttemptKey,
} from '../auth/repository';
import { accountWaitMs, FAILURE_MEMORY_MS } from '../auth/throttle';

/**
 * Throttling of second-factor codes, by the sign-in mechanism (`auth/throttle.ts`,
 * the `login_attempts` table): per account, LOGIN_MAX_FAILURES_PER_ACCOUNT wrong
 * codes (remembered 24 hours) pass, then one attempt after a growing delay since
 * the last failure (1, 2, 4... minutes, at most LOGIN_THROTTLE_WINDOW_MINUTES). The
 * counter is its own (kind `second-factor`): a right password does not reset it.
 * An attempt is counted before the code is checked, under an advisory lock, so
 * parallel guesses cannot all pass; a right code releases it and clears the count.
 */

export type Reservation = { ids: string[]; key: AttemptKey } | { retryAfterMs: number };

export const codeAttemptKey = (userId: string): AttemptKey => ({
  kind: 'second-factor',
  key: `user:${userId}`,
});

export async function reserveCodeAttempt(
  db: Db,
  config: RuntimeConfig,
  userId: string,
  now: Date,
): Promise<Reservation> {
  const key = codeAttemptKey(userId);
  const { maxPerAccount, windowMinutes } = config.loginThrottle;
  return db.transaction(async (tx) => {
    await lockAttemptKeys(tx, [key]);
    const stats = await failureStats(tx, key, new Date(now.getTime() - FAILURE_MEMORY_MS));
    const wait = accountWaitMs(stats, maxPerAccount, windowMinutes * 60_000, now);
    if (wait > 0) return { retryAfterMs: wait };
    return { ids: await recordAttempts(tx, [key], now), key };
  });
}

/** A right code: its attempt is forgotten and the account's wrong codes with it. */
export async function releaseCodeAttempt(
  db: Db,
  reservation: { ids: string[]; key: AttemptKey },
): Promise<void> {
  await releaseAttempt(db, reservation.ids);
  await clearFailures(db, reservation.key);
}

import fc from 'fast-check';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import {
  acceptedStep,
  isTotpShaped,
  newRecoveryCode,
  newTotpSecret,
  recoveryCodeHash,
  TOTP_PERIOD_SECONDS,
} from './totp';

const KEY = 'test-secret-key';

describe('TOTP and recovery codes [FEAT-SECOND-FACTOR]', () => {
  const secret = newTotpSecret();

  it('accepts a code once: at its step after an earlier one, never at or before its own (no replay)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1_000_000_000, max: 4_000_000_000 }),
        fc.integer({ min: -1, max: 1 }),
        async (seconds, drift) => {
          const now = new Date(seconds * 1000);
          const step = Math.floor(seconds / TOTP_PERIOD_SECONDS) + drift;
          const code = await generate({ secret, epoch: step * TOTP_PERIOD_SECONDS });
          expect(await acceptedStep(secret, code, step - 1, now)).toBe(step);
          expect(await acceptedStep(secret, code, null, now)).toBe(step);
          expect(await acceptedStep(secret, code, step, now)).toBeNull();
          expect(await acceptedStep(secret, code, step + 1, now)).toBeNull();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a code two steps away from the server clock', async () => {
    const seconds = 1_800_000_000;
    const code = await generate({ secret, epoch: seconds + 2 * TOTP_PERIOD_SECONDS });
    const now = new Date(seconds * 1000);
    // Unless the same digits happen to be the code of a nearby step (1 in 10^6 per step).
    const nearby = await Promise.all(
      [-1, 0, 1].map((d) => generate({ secret, epoch: seconds + d * TOTP_PERIOD_SECONDS })),
    );
    if (!nearby.includes(code)) expect(await acceptedStep(secret, code, null, now)).toBeNull();
  });

  it('a recovery code is never read as an authenticator code, and hashes the same however typed', () => {
    fc.assert(
      fc.property(
        fc.constant(null).map(() => newRecoveryCode()),
        fc.boolean(),
        fc.constantFrom('', ' ', '  '),
        (code, upper, pad) => {
          expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
          expect(isTotpShaped(code)).toBe(false);
          const typed = `${pad}${upper ? code.toUpperCase() : code.replace('-', ' ')}${pad}`;
          expect(recoveryCodeHash(KEY, typed)).toBe(recoveryCodeHash(KEY, code));
          expect(recoveryCodeHash(`${KEY}x`, code)).not.toBe(recoveryCodeHash(KEY, code));
        },
      ),
    );
  });
});

import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** argon2id cost parameters (ARGON2_MEMORY_KIB, ARGON2_TIME_COST). The library's default algorithm is argon2id. */
export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
}

export function hashPassword(password: string, params: Argon2Params): Promise<string> {
  return hash(password, {
    memoryCost: params.memoryCost,
    timeCost: params.timeCost,
    parallelism: 1,
  });
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** false for a wrong password and for an unreadable hash. */
  verify(passwordHash: string, password: string): Promise<boolean>;
  /**
   * Spend the same time as a real verification and answer false: used when the
   * account does not exist, so the reply time does not tell whether it does.
   */
  verifyNobody(password: string): Promise<false>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Password hashing with the configured cost (decorated in `app.ts`). */
    passwords: PasswordHasher;
  }
}

export function createPasswordHasher(params: Argon2Params): PasswordHasher {
  let dummyHash: Promise<string> | undefined;
  const check = async (passwordHash: string, password: string) => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  };
  return {
    hash: (password) => hashPassword(password, params),
    verify: check,
    async verifyNobody(password) {
      dummyHash ??= hashPassword(randomBytes(24).toString('base64url'), params);
      await check(await dummyHash, password);
      return false;
    },
  };
}

/** A strong random password (the generated first administrator password). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

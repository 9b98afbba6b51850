import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { fmt, opsPerSecond } from './measure';

/**
 * Cost of one sign-in's password verification with the default argon2id
 * parameters (19 MiB, 2 passes), against one SHA-256 (the baseline, what an
 * API-key check costs). The first should be tens of milliseconds, the second
 * microseconds.
 */
export async function passwordHashBench(): Promise<void> {
  const password = randomBytes(16).toString('hex');
  // argon2id is the library default.
  const stored = await hash(password, {
    memoryCost: 19456,
    timeCost: 2,
  });
  const argon = await opsPerSecond(() => verify(stored, password), 2000);
  const sha = await opsPerSecond(() => createHash('sha256').update(password).digest(), 500);
  console.log(
    `argon2id verify: ${fmt(1000 / argon, 1)} ms each; sha256: ${fmt(1e6 / sha, 2)} µs each; ratio ${fmt(sha / argon, 0)}x`,
  );
}

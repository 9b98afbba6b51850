import { COMMON_PASSWORDS } from './common-passwords';

/**
 * Password rules (issue 5): at least 8 characters, not only digits, not one of
 * the most common passwords, and long passphrases welcome (up to 1024
 * characters, far beyond the 64 a password manager may generate).
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/** The reason a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(
  password: string,
  user?: { username?: string; email?: string },
): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return `This password is too short. It must contain at least ${PASSWORD_MIN_LENGTH} characters.`;
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return `This password is too long. It may contain at most ${PASSWORD_MAX_LENGTH} characters.`;
  }
  if (/^\d+$/.test(password)) return 'This password is entirely numeric.';
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower) || COMMON_PASSWORDS.has(lower.trim())) {
    return 'This password is too common.';
  }
  const names = [user?.username, user?.email, user?.email?.split('@')[0]]
    .filter((n): n is string => typeof n === 'string' && n.length >= 3)
    .map((n) => n.toLowerCase());
  if (names.includes(lower)) return 'This password is too similar to the username or e-mail.';
  return undefined;
}

/*
 * The new password of a reset, welcome or invitation link: the same client-side
 * checks everywhere; the strength rules are the server's (its message shows under
 * the field).
 */

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/** What the server's password rules ask, shown under the field until it answers otherwise. */
export const NEW_PASSWORD_HINT = 'At least 8 characters, not only digits, not a common password.';

export type NewPasswordErrors = Partial<Record<'new_password' | 'new_password_confirm', string>>;

/** Client-side checks of the new password form; nothing is sent while any applies. */
export function checkNewPassword(password: string, confirmation: string): NewPasswordErrors {
  const errors: NewPasswordErrors = {};
  if (!password) errors.new_password = 'Enter a new password.';
  if (!confirmation) errors.new_password_confirm = 'Enter the new password again.';
  else if (password && password !== confirmation) {
    errors.new_password_confirm = PASSWORDS_DO_NOT_MATCH;
  }
  return errors;
}

import { NEW_PASSWORD_HINT, type NewPasswordErrors } from '../new-password';
import { PasswordField } from './password-field';

/** New password and its confirmation (reset, welcome and invitation pages). */
export function NewPasswordFields({
  idPrefix,
  password,
  confirmation,
  onPassword,
  onConfirmation,
  errors,
  disabled,
  autoFocus = false,
}: {
  idPrefix: string;
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
  errors: NewPasswordErrors;
  disabled: boolean;
  autoFocus?: boolean;
}) {
  return (
    <>
      <PasswordField
        id={`${idPrefix}-new-password`}
        label="New password"
        name="new_password"
        autoComplete="new-password"
        autoFocus={autoFocus}
        fullWidth
        value={password}
        onChange={(event) => onPassword(event.target.value)}
        error={Boolean(errors.new_password)}
        helperText={errors.new_password ?? NEW_PASSWORD_HINT}
        disabled={disabled}
      />
      <PasswordField
        id={`${idPrefix}-new-password-confirm`}
        label="Confirm new password"
        name="new_password_confirm"
        autoComplete="new-password"
        fullWidth
        value={confirmation}
        onChange={(event) => onConfirmation(event.target.value)}
        error={Boolean(errors.new_password_confirm)}
        helperText={errors.new_password_confirm}
        disabled={disabled}
      />
    </>
  );
}

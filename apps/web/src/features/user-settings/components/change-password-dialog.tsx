import type { TPasswordChange } from '@coldtrace/contract';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { errorMessage } from '../../../components/error-handler';
import { isApiError } from '../../../lib/api-error';
import { useChangePassword } from '../api/change-password';

type Field = keyof TPasswordChange;
export type PasswordChangeErrors = Partial<Record<Field, string>>;

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

const REQUIRED: Record<Field, string> = {
  old_password: 'Enter your current password.',
  new_password: 'Enter a new password.',
  new_password_confirm: 'Enter the new password again.',
};

/** Checks before sending (spec section 5): all three required, the confirmation must match. */
export function checkPasswordChange(form: TPasswordChange): PasswordChangeErrors {
  const errors: PasswordChangeErrors = {};
  for (const field of Object.keys(REQUIRED) as Field[]) {
    if (!form[field]) errors[field] = REQUIRED[field];
  }
  if (
    form.new_password &&
    form.new_password_confirm &&
    form.new_password !== form.new_password_confirm
  ) {
    errors.new_password_confirm = PASSWORDS_DO_NOT_MATCH;
  }
  return errors;
}

/**
 * Where a server error shows (spec section 5): an object error per field, a
 * plain string error under the current password; errors the server gives on
 * the confirmation are ignored.
 */
export function serverPasswordChangeErrors(error: unknown): PasswordChangeErrors {
  if (isApiError(error) && Object.keys(error.fields).length > 0) {
    const errors: PasswordChangeErrors = {};
    if (error.fields.old_password) errors.old_password = error.fields.old_password;
    if (error.fields.new_password) errors.new_password = error.fields.new_password;
    return errors;
  }
  return { old_password: errorMessage(error) };
}

const LABELS: Record<Field, string> = {
  old_password: 'Current password',
  new_password: 'New password',
  new_password_confirm: 'Confirm new password',
};

const AUTOCOMPLETE: Record<Field, string> = {
  old_password: 'current-password',
  new_password: 'new-password',
  new_password_confirm: 'new-password',
};

/** Change Password dialog of the settings menu. Changing it signs out the user's other sessions. */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const change = useChangePassword();
  const [form, setForm] = useState<TPasswordChange>({
    old_password: '',
    new_password: '',
    new_password_confirm: '',
  });
  const [errors, setErrors] = useState<PasswordChangeErrors>({});

  const submit = () => {
    const found = checkPasswordChange(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    change.mutate(form, {
      onSuccess: onClose,
      onError: (error) => setErrors(serverPasswordChangeErrors(error)),
    });
  };

  return (
    <FormDialog
      title="Change Password"
      submitLabel="Change Password"
      maxWidth="xs"
      onClose={onClose}
      onSubmit={submit}
      pending={change.isPending}
    >
      <Stack spacing={2}>
        {(Object.keys(LABELS) as Field[]).map((field, index) => (
          <TextField
            key={field}
            id={`change-password-${field}`}
            name={field}
            label={LABELS[field]}
            type="password"
            autoComplete={AUTOCOMPLETE[field]}
            autoFocus={index === 0}
            required
            fullWidth
            value={form[field]}
            onChange={(event) => {
              const value = event.target.value;
              setForm((f) => ({ ...f, [field]: value }));
            }}
            error={Boolean(errors[field])}
            helperText={
              errors[field] ??
              (field === 'new_password'
                ? 'At least 8 characters, not only digits, not a common password.'
                : undefined)
            }
            disabled={change.isPending}
          />
        ))}
      </Stack>
    </FormDialog>
  );
}

import type { TUserSmall } from '@coldtrace/contract';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { errorMessage } from '../../../components/error-handler';
import { FormDialog } from '../../../components/form-dialog';
import { isApiError } from '../../../lib/api-error';
import { useResetSecondFactor } from '../api/reset-second-factor';

type Field = 'reason' | 'password';

/**
 * Removing another person's second factor (server administrators), for someone
 * who lost both the authenticator and the recovery codes: a reason for the
 * trail and the administrator's own password. The person then signs with the
 * password alone until they enrol again (or is asked to enrol where their
 * organization requires it).
 */
export function ResetSecondFactorDialog({
  user,
  onClose,
  onDone,
}: {
  user: TUserSmall;
  onClose: () => void;
  onDone: (username: string) => void;
}) {
  const reset = useResetSecondFactor();
  const [reason, setReason] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const submit = () => {
    setFormError(null);
    const missing: Partial<Record<Field, string>> = {};
    if (reason.trim() === '') missing.reason = 'Give the reason';
    if (password === '') missing.password = 'Enter your password';
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    reset.mutate(
      { user_id: user.id, reason: reason.trim(), password },
      {
        onSuccess: (done) => onDone(done.username),
        onError: (e) => {
          const fields = isApiError(e) ? e.fields : {};
          const named = { reason: fields.reason, password: fields.password };
          if (named.reason || named.password) setErrors(named);
          else setFormError(errorMessage(e));
        },
      },
    );
  };
  const field = (name: Field) => ({
    error: Boolean(errors[name]),
    helperText: errors[name],
  });
  return (
    <FormDialog
      title={`Reset the second factor of ${user.username}`}
      onClose={onClose}
      onSubmit={submit}
      pending={reset.isPending}
      error={formError}
      submitLabel="Reset second factor"
      maxWidth="sm"
    >
      <Typography variant="body2" sx={{ mb: 2 }}>
        Their authenticator app and recovery codes stop working. Signatures they gave with them keep
        saying so. The reason is written to the audit trail of each of their organizations.
      </Typography>
      <TextField
        label="Reason"
        value={reason}
        onChange={(event) => {
          setReason(event.target.value);
          setErrors((e) => ({ ...e, reason: undefined }));
        }}
        {...field('reason')}
        required
        autoFocus
        fullWidth
        multiline
        minRows={2}
        slotProps={{ htmlInput: { maxLength: 500 } }}
        sx={{ mb: 2 }}
      />
      <TextField
        label="Your password"
        type="password"
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          setErrors((e) => ({ ...e, password: undefined }));
        }}
        {...field('password')}
        required
        fullWidth
        autoComplete="current-password"
      />
    </FormDialog>
  );
}

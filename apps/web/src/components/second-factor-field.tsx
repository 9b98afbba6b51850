import {
  authSecondFactorGet,
  SECOND_FACTOR_NOT_ENROLLED_MESSAGE,
  type TSecondFactorStatus,
} from '@coldtrace/contract';
import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../lib/api-client';

/**
 * The second factor of a signature (issue 37 item 7; docs/decisions/second-factor.md):
 * the signer's authenticator code or a recovery code, with the password. Asked
 * when the organization requires it, offered when the signer has enrolled; a
 * signer who must give one but has not enrolled is told where to enrol.
 */

export const SECOND_FACTOR_QUERY_KEY = ['auth', 'second-factor'] as const;

/** GET /api/auth/second-factor/: the user's factor and the session organization's requirement. */
export function useSecondFactorStatus() {
  return useQuery({
    queryKey: SECOND_FACTOR_QUERY_KEY,
    queryFn: ({ signal }) => callApi(authSecondFactorGet, { signal }),
  });
}

/** What a signature asks for: nothing, the code (required or optional), or an enrolment first. */
export function secondFactorAsk(
  status: TSecondFactorStatus | undefined,
): 'none' | 'required' | 'optional' | 'enrol' {
  if (!status) return 'none';
  if (status.required_for_signing) return status.enabled ? 'required' : 'enrol';
  return status.enabled ? 'optional' : 'none';
}

/** The code field of a signature dialog (nothing when neither asked for nor enrolled). */
export function SecondFactorCodeField({
  value,
  onChange,
  error,
  disabled = false,
}: {
  value: string;
  onChange: (code: string) => void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const ask = secondFactorAsk(useSecondFactorStatus().data);
  if (ask === 'none') return null;
  if (ask === 'enrol') {
    return (
      <Alert severity="warning" role="alert">
        {error ?? SECOND_FACTOR_NOT_ENROLLED_MESSAGE}
      </Alert>
    );
  }
  return (
    <TextField
      label="Authenticator code"
      name="second_factor_code"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required={ask === 'required'}
      disabled={disabled}
      fullWidth
      autoComplete="one-time-code"
      error={error !== undefined}
      helperText={
        error ??
        (ask === 'required'
          ? 'Required by your organization: the 6-digit code from your authenticator app, or a recovery code'
          : 'Optional: the 6-digit code from your authenticator app, recorded with your signature')
      }
      slotProps={{ htmlInput: { maxLength: 64, spellCheck: false } }}
    />
  );
}

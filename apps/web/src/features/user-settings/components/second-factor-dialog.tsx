import { formatDateTime } from '@coldtrace/domain';
import type { TSecondFactorEnrolment, TSecondFactorStatus, TUser } from '@coldtrace/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { errorMessage } from '../../../components/error-handler';
import { FormDialog } from '../../../components/form-dialog';
import { useSecondFactorStatus } from '../../../components/second-factor-field';
import { ShownOnceDialog } from '../../../components/shown-once-dialog';
import { isApiError } from '../../../lib/api-error';
import {
  useConfirmEnrolment,
  useDisableSecondFactor,
  useNewRecoveryCodes,
  useStartEnrolment,
} from '../api/second-factor';

type Step =
  | { name: 'overview' }
  | { name: 'scan'; enrolment: TSecondFactorEnrolment }
  | { name: 'codes'; codes: string[] }
  | { name: 'proof'; action: 'disable' | 'regenerate' };

/** What the organization asks, in a sentence (null: nothing). */
function requirementText(status: TSecondFactorStatus): string | null {
  if (status.required_for_signing && status.required_for_administrators) {
    return 'Your organization requires it for every signature and at its administrators’ sign-in.';
  }
  if (status.required_for_signing) return 'Your organization requires it for every signature.';
  if (status.required_for_administrators) {
    return 'Your organization requires it at its administrators’ sign-in.';
  }
  return null;
}

const fieldsOf = (error: unknown) => (isApiError(error) ? error.fields : {});
/** A failure not tied to an input of the dialog. */
const otherError = (error: unknown, known: string[]) =>
  error && !Object.keys(fieldsOf(error)).some((f) => known.includes(f))
    ? errorMessage(error)
    : null;

const CODE_HELP = 'The 6-digit code from your authenticator app';

/** The password entered again, with the server's message about it. */
function PasswordInput(props: {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  return (
    <TextField
      label="Password"
      type="password"
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      required
      autoFocus
      fullWidth
      autoComplete="current-password"
      error={props.error !== undefined}
      helperText={props.error ?? 'Enter your password again'}
    />
  );
}

/** A code from the app (after the first one, a recovery code does too). */
function CodeInput(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  first?: boolean;
}) {
  return (
    <TextField
      label={props.label}
      name="code"
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      required
      autoFocus={props.first === true}
      fullWidth
      autoComplete="one-time-code"
      error={props.error !== undefined}
      helperText={props.error ?? CODE_HELP}
      slotProps={{ htmlInput: { inputMode: props.first ? 'numeric' : 'text', maxLength: 64 } }}
    />
  );
}

/**
 * Second Factor (settings menu; issue 37 item 7): enrol an authenticator app
 * (password, then scan the QR code or type the key, then a first code), see the
 * recovery codes once, get new ones or disable it (password and a code).
 */
export function SecondFactorDialog({ user, onClose }: { user: TUser; onClose: () => void }) {
  const status = useSecondFactorStatus();
  const [step, setStep] = useState<Step>({ name: 'overview' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const start = useStartEnrolment();
  const confirm = useConfirmEnrolment();
  const regenerate = useNewRecoveryCodes();
  const disable = useDisableSecondFactor();
  const current = status.data;
  const showCodes = (reply: { recovery_codes: string[] }) =>
    setStep({ name: 'codes', codes: reply.recovery_codes });

  if (step.name === 'codes') {
    return (
      <ShownOnceDialog
        title="Recovery codes"
        warning="Keep these codes somewhere safe, away from your phone. Each one works once, instead of a code from your authenticator app. They are shown only now."
        label="Recovery codes"
        value={step.codes.join('\n')}
        onClose={onClose}
      />
    );
  }

  if (step.name === 'scan') {
    return (
      <FormDialog
        title="Second Factor"
        submitLabel="Confirm"
        maxWidth="xs"
        onClose={onClose}
        pending={confirm.isPending}
        error={otherError(confirm.error, ['second_factor_code', 'code'])}
        onSubmit={() =>
          confirm.mutate(code.trim(), { onSuccess: showCodes, onError: () => setCode('') })
        }
      >
        <Stack spacing={2}>
          <Typography variant="body2">
            Scan this QR code with your authenticator app (for example Google Authenticator,
            Microsoft Authenticator or 1Password), then enter the code it shows.
          </Typography>
          <Box
            component="img"
            src={step.enrolment.qr_code}
            alt="QR code to add Coldtrace to your authenticator app"
            sx={{ width: 200, height: 200, alignSelf: 'center', bgcolor: '#fff' }}
          />
          <TextField
            label="Or enter this key in the app"
            value={step.enrolment.secret}
            fullWidth
            slotProps={{ htmlInput: { readOnly: true, spellCheck: false } }}
            sx={{ '& input': { fontFamily: 'monospace' } }}
          />
          <CodeInput
            label="Code from the app"
            value={code}
            onChange={setCode}
            error={fieldsOf(confirm.error).second_factor_code}
            first
          />
        </Stack>
      </FormDialog>
    );
  }

  if (step.name === 'proof') {
    const mutation = step.action === 'disable' ? disable : regenerate;
    const fields = fieldsOf(mutation.error);
    const submit = () => {
      const body = { password, code: code.trim() };
      const reset = () => {
        setPassword('');
        setCode('');
      };
      if (step.action === 'disable') disable.mutate(body, { onSuccess: onClose, onError: reset });
      else regenerate.mutate(body, { onSuccess: showCodes, onError: reset });
    };
    return (
      <FormDialog
        title={step.action === 'disable' ? 'Disable second factor' : 'New recovery codes'}
        submitLabel={step.action === 'disable' ? 'Disable' : 'Get new codes'}
        maxWidth="xs"
        onClose={onClose}
        pending={mutation.isPending}
        error={otherError(mutation.error, ['password', 'second_factor_code', 'code'])}
        onSubmit={submit}
      >
        <Stack spacing={2}>
          {step.action === 'regenerate' ? (
            <Typography variant="body2">Your current recovery codes will stop working.</Typography>
          ) : null}
          <PasswordInput value={password} onChange={setPassword} error={fields.password} />
          <CodeInput
            label="Authenticator code or recovery code"
            value={code}
            onChange={setCode}
            error={fields.second_factor_code}
          />
        </Stack>
      </FormDialog>
    );
  }

  const enabled = current?.enabled === true;
  const requirement = current ? requirementText(current) : null;
  return (
    <FormDialog
      title="Second Factor"
      submitLabel={enabled ? 'Close' : 'Start enrolment'}
      maxWidth="xs"
      onClose={onClose}
      pending={start.isPending}
      error={status.isError ? errorMessage(status.error) : otherError(start.error, ['password'])}
      onSubmit={() => {
        if (enabled) return onClose();
        start.mutate(password, {
          onSuccess: (enrolment) => {
            setPassword('');
            setStep({ name: 'scan', enrolment });
          },
          onError: () => setPassword(''),
        });
      }}
    >
      <Stack spacing={2}>
        {requirement ? <Alert severity="info">{requirement}</Alert> : null}
        {enabled ? (
          <>
            <Typography variant="body2">
              <strong>On</strong> since {formatDateTime(current.enabled_at, user.settings.timezone)}
              . Your signatures can carry a code from your authenticator app.{' '}
              {current.recovery_codes_left} recovery code
              {current.recovery_codes_left === 1 ? '' : 's'} left.
            </Typography>
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
              <Button onClick={() => setStep({ name: 'proof', action: 'regenerate' })}>
                New recovery codes
              </Button>
              <Button color="error" onClick={() => setStep({ name: 'proof', action: 'disable' })}>
                Disable
              </Button>
            </Stack>
          </>
        ) : (
          <>
            <Typography variant="body2">
              A second factor proves it is you when you sign: besides your password, a 6-digit code
              from an authenticator app on your phone. Off for now.
            </Typography>
            <PasswordInput
              value={password}
              onChange={setPassword}
              error={fieldsOf(start.error).password}
            />
          </>
        )}
      </Stack>
    </FormDialog>
  );
}

import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../components/error-handler';
import { isApiError } from '../../lib/api-error';
import { clearSession } from '../session';
import { useConfirmPasswordReset } from './api/confirm-password-reset';
import { useRequestPasswordReset } from './api/request-password-reset';
import { usePasswordResetLink } from './api/validate-password-reset';
import { AuthCard } from './components/auth-card';
import { BackToLogin } from './components/back-to-login';
import { LinkCheckFailed, LinkChecking } from './components/link-check';
import { NewPasswordFields } from './components/new-password-fields';
import { SubmitButton } from './components/submit-button';
import { checkNewPassword, type NewPasswordErrors } from './new-password';
import { useCsrfOnArrival } from './use-csrf-on-arrival';

/*
 * Password reset and welcome pages (spec section 2): /forgotpassword,
 * /forgotpasswordconfirm, /passwordreset/{uuid}/{token}, /passwordresetconfirm,
 * /welcome/{uuid}/{token} and /welcome/passwordresetconfirm.
 */

const INVALID_LINK = 'This link is invalid, has expired or was already used.';

/** /forgotpassword: the e-mail address; the reply never tells whether it is known. */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [message, setMessage] = useState<string | null>(null);
  useCsrfOnArrival();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setMessage(null);
    if (!email.trim()) {
      setFieldError('Enter your email address.');
      return;
    }
    setFieldError(undefined);
    request.mutate(
      { email: email.trim() },
      {
        onSuccess: () => navigate('/forgotpasswordconfirm'),
        onError: (error) => {
          if (isApiError(error) && error.fields.email) setFieldError(error.fields.email);
          else setMessage(errorMessage(error));
        },
      },
    );
  };

  return (
    <AuthCard
      title="Forgot Password"
      subtitle="Enter the email address of your account and we will send you a link to choose a new password."
    >
      <Stack
        component="form"
        noValidate
        spacing={2.5}
        onSubmit={onSubmit}
        aria-busy={request.isPending}
      >
        {message ? <Alert severity="error">{message}</Alert> : null}
        <TextField
          id="forgot-email"
          label="Email address"
          name="email"
          type="email"
          autoComplete="email"
          autoFocus
          fullWidth
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={Boolean(fieldError)}
          helperText={fieldError}
          disabled={request.isPending}
        />
        <SubmitButton working={request.isPending}>Send Reset Link</SubmitButton>
        <BackToLogin />
      </Stack>
    </AuthCard>
  );
}

/** /forgotpasswordconfirm */
export function ForgotPasswordConfirmPage() {
  return (
    <AuthCard title="Check Your Email">
      <Stack spacing={2.5}>
        <Typography>
          If an account uses that address, we have sent it an email with a link to choose a new
          password. The link works once and expires after a few days.
        </Typography>
        <Typography color="text.secondary" variant="body2">
          No email? Check your spam folder, or ask again in a few minutes.
        </Typography>
        <BackToLogin />
      </Stack>
    </AuthCard>
  );
}

/** /passwordreset/{uuid}/{token} and /welcome/{uuid}/{token}. */
export function PasswordResetPage({ mode }: { mode: 'reset' | 'welcome' }) {
  const { uuid = '', token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const link = usePasswordResetLink({ uuid, token });
  const confirm = useConfirmPasswordReset();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<NewPasswordErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [linkDead, setLinkDead] = useState(false);
  useCsrfOnArrival();

  const welcome = mode === 'welcome';
  const title = welcome ? 'Welcome to Coldtrace' : 'Set a New Password';
  const subtitle = welcome
    ? 'Choose a password to finish setting up your account.'
    : 'Choose a new password for your account.';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setMessage(null);
    const found = checkNewPassword(password, confirmation);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    confirm.mutate(
      { uuid, token, new_password: password },
      {
        onSuccess: async () => {
          await clearSession(queryClient);
          await navigate(welcome ? '/welcome/passwordresetconfirm' : '/passwordresetconfirm', {
            replace: true,
          });
        },
        onError: (error) => {
          if (isApiError(error) && error.fields.token) setLinkDead(true);
          else if (isApiError(error) && error.fields.new_password) {
            setErrors({ new_password: error.fields.new_password });
          } else setMessage(errorMessage(error));
        },
      },
    );
  };

  if (link.isPending) return <LinkChecking title={title} />;
  const invalid = linkDead || (link.isError && isApiError(link.error) && link.error.status === 400);
  if (invalid) {
    return (
      <AuthCard title={title}>
        <Stack spacing={2.5}>
          <Alert severity="warning">{INVALID_LINK}</Alert>
          <Button component={RouterLink} to="/forgotpassword" variant="contained">
            Request a New Link
          </Button>
          <BackToLogin />
        </Stack>
      </AuthCard>
    );
  }
  if (link.isError) {
    return <LinkCheckFailed title={title} error={link.error} onRetry={() => void link.refetch()} />;
  }

  return (
    <AuthCard title={title} subtitle={subtitle}>
      <Stack
        component="form"
        noValidate
        spacing={2.5}
        onSubmit={onSubmit}
        aria-busy={confirm.isPending}
      >
        {message ? <Alert severity="error">{message}</Alert> : null}
        <NewPasswordFields
          idPrefix="reset"
          password={password}
          confirmation={confirmation}
          onPassword={setPassword}
          onConfirmation={setConfirmation}
          errors={errors}
          disabled={confirm.isPending}
          autoFocus
        />
        <SubmitButton working={confirm.isPending}>
          {welcome ? 'Set Password' : 'Reset Password'}
        </SubmitButton>
      </Stack>
    </AuthCard>
  );
}

/** /passwordresetconfirm and /welcome/passwordresetconfirm. */
export function PasswordResetConfirmPage({ mode }: { mode: 'reset' | 'welcome' }) {
  return (
    <AuthCard title={mode === 'welcome' ? 'Your Password Is Set' : 'Password Reset'}>
      <Stack spacing={2.5}>
        <Typography>
          {mode === 'welcome'
            ? 'Your account is ready. Log in with your username or email address and your new password.'
            : 'Your password has been changed. Log in with your new password.'}
        </Typography>
        <Button component={RouterLink} to="/login" variant="contained" size="large">
          Log In
        </Button>
      </Stack>
    </AuthCard>
  );
}

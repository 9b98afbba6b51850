import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../components/error-handler';
import { documentTitle } from '../../components/page';
import { isApiError } from '../../lib/api-error';
import { isLoggedIn, takeRedirectTarget } from '../../lib/session';
import { useLogin } from './api/login';
import { loginNotice } from './login-notice';
import { PasswordField } from './components/password-field';
import { SubmitButton } from './components/submit-button';
import { useCsrfOnArrival } from './use-csrf-on-arrival';

type FieldErrors = Partial<Record<'email_or_username' | 'password' | 'second_factor_code', string>>;

/**
 * /login: e-mail or username and password; on success, the remembered path or /.
 * An administrator whose organization requires a second factor is then asked for
 * the authenticator code (issue 37 item 7): the server answers SECOND_FACTOR_REQUIRED.
 */
export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const notice = loginNotice(location.state);
  const login = useLogin();
  const [emailOrUsername, setEmailOrUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [asksCode, setAsksCode] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);

  // Fetch the CSRF token on arrival, so the sign-in itself is a single request.
  useCsrfOnArrival();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const missing: FieldErrors = {};
    if (!emailOrUsername.trim()) missing.email_or_username = 'Enter your email or username.';
    if (!password) missing.password = 'Enter your password.';
    setFieldErrors(missing);
    setMessage(null);
    if (Object.keys(missing).length > 0) return;
    login.mutate(
      {
        email_or_username: emailOrUsername.trim(),
        password,
        ...(asksCode && code.trim() !== '' ? { second_factor_code: code.trim() } : {}),
      },
      {
        onSuccess: async (user) => {
          if (!isLoggedIn(user)) {
            setMessage('This account is locked. Ask an administrator of your organization.');
            return;
          }
          await navigate(takeRedirectTarget(), { replace: true });
        },
        onError: (error) => {
          setCode('');
          if (isApiError(error) && error.code === 'SECOND_FACTOR_REQUIRED') {
            // Not a failure: the next step of signing in.
            setAsksCode(true);
            setMessage(null);
            setFieldErrors({});
            return;
          }
          setMessage(errorMessage(error));
          if (isApiError(error)) {
            setFieldErrors({
              email_or_username: error.fields.email_or_username,
              password: error.fields.password,
              second_factor_code: error.fields.second_factor_code,
            });
          }
        },
      },
    );
  };

  const working = login.isPending;

  return (
    <Paper
      variant="outlined"
      sx={{ maxWidth: 420, mx: 'auto', mt: { xs: 1, sm: 6 }, p: { xs: 2.5, sm: 4 } }}
    >
      <title>{documentTitle('Log In')}</title>
      <Typography variant="h1" sx={{ mb: 0.5 }}>
        Log In
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Sign in to follow your shipments&apos; temperatures.
      </Typography>
      <Stack component="form" noValidate spacing={2.5} onSubmit={onSubmit} aria-busy={working}>
        {notice && !message ? <Alert severity="success">{notice}</Alert> : null}
        {message ? <Alert severity="error">{message}</Alert> : null}
        <TextField
          id="login-email-or-username"
          label="Email or username"
          name="email_or_username"
          autoComplete="username"
          autoFocus
          fullWidth
          value={emailOrUsername}
          onChange={(event) => setEmailOrUsername(event.target.value)}
          error={Boolean(fieldErrors.email_or_username)}
          helperText={fieldErrors.email_or_username}
          disabled={working}
        />
        <PasswordField
          id="login-password"
          label="Password"
          name="password"
          autoComplete="current-password"
          fullWidth
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={Boolean(fieldErrors.password)}
          helperText={fieldErrors.password}
          disabled={working}
        />
        {asksCode ? (
          <TextField
            id="login-second-factor-code"
            label="Authenticator code"
            name="second_factor_code"
            autoComplete="one-time-code"
            autoFocus
            required
            fullWidth
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={Boolean(fieldErrors.second_factor_code)}
            helperText={
              fieldErrors.second_factor_code ??
              'Your organization asks its administrators for the 6-digit code from their authenticator app (or a recovery code)'
            }
            disabled={working}
            slotProps={{ htmlInput: { maxLength: 64 } }}
          />
        ) : null}
        <SubmitButton working={working}>Log In</SubmitButton>
        <Link
          component={RouterLink}
          to="/forgotpassword"
          variant="body2"
          sx={{ alignSelf: 'center' }}
        >
          Forgot your password?
        </Link>
      </Stack>
    </Paper>
  );
}

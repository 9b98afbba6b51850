import type { TInvitationLink, TInvitationView } from '@coldtrace/contract';
import { formatDate } from '@coldtrace/domain';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../components/error-handler';
import { isApiError } from '../../lib/api-error';
import { useAppSettings } from '../../lib/app-settings';
import { browserTimeZone } from '../../lib/browser';
import { rememberRedirectTarget } from '../../lib/session';
import { clearSession, useCurrentUser, useSession } from '../session';
import { useAcceptInvitation } from './api/accept-invitation';
import { useDeclineInvitation } from './api/decline-invitation';
import { useRegisterFromInvitation } from './api/register-invitation';
import { useInvitationLink } from './api/validate-invitation';
import { AuthCard } from './components/auth-card';
import { BackToLogin } from './components/back-to-login';
import { LinkCheckFailed, LinkChecking } from './components/link-check';
import { NewPasswordFields } from './components/new-password-fields';
import { SubmitButton } from './components/submit-button';
import {
  checkInvitationForm,
  deadLinkMessage,
  invitationFieldErrors,
  invitationFormFrom,
  invitationSentence,
  type InvitationField,
  type InvitationFormErrors,
} from './invitation';
import { loginNoticeState } from './login-notice';
import { useCsrfOnArrival } from './use-csrf-on-arrival';

/*
 * /invitation/{uuid}/{token}: ours, not the spec's (issue 34, "Accounts belong to their
 * owners"). Joining an organization needs the person's consent: the link an
 * administrator's registration e-mails lands here, public like the welcome page. The
 * person creates their account, or signs in to the one their address has and accepts;
 * or declines.
 */

const TITLE = 'Your Invitation';
const WHAT = 'your invitation';
export const ACCOUNT_READY = 'Your account is ready: sign in with your new password.';

type Outcome = { kind: 'declined' } | { kind: 'dead'; message: string };

/** What failed, as the page shows it: a dead link ends the page, anything else is a message. */
interface Failures {
  onDead: (message: string) => void;
  onMessage: (message: string | null) => void;
}

function failureHandler({ onDead, onMessage }: Failures) {
  return (error: unknown) => {
    const dead = deadLinkMessage(error);
    if (dead) onDead(dead);
    else onMessage(errorMessage(error));
  };
}

export function InvitationPage() {
  const { uuid = '', token = '' } = useParams();
  const link: TInvitationLink = { uuid, token };
  const invitation = useInvitationLink(link);
  const session = useSession();
  const me = useCurrentUser();
  const decline = useDeclineInvitation();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useCsrfOnArrival();

  const failures: Failures = {
    onDead: (text) => setOutcome({ kind: 'dead', message: text }),
    onMessage: setMessage,
  };
  const onDecline = () => {
    setMessage(null);
    decline.mutate(link, {
      onSuccess: () => setOutcome({ kind: 'declined' }),
      onError: failureHandler(failures),
    });
  };
  const leave = me ? (
    <Link component={RouterLink} to="/" variant="body2" sx={{ alignSelf: 'center' }}>
      Go to the dashboard
    </Link>
  ) : (
    <BackToLogin />
  );

  if (outcome?.kind === 'declined') {
    return (
      <AuthCard title="Invitation Declined">
        <Stack spacing={2.5}>
          <Typography>You declined the invitation.</Typography>
          {leave}
        </Stack>
      </AuthCard>
    );
  }
  const dead = outcome?.kind === 'dead' ? outcome.message : deadLinkMessage(invitation.error, true);
  if (dead) {
    return (
      <AuthCard title={TITLE}>
        <Stack spacing={2.5}>
          <Alert severity="warning">{dead}</Alert>
          {leave}
        </Stack>
      </AuthCard>
    );
  }
  // Whether the visitor is signed in decides what an existing account is offered.
  if (invitation.isPending || (invitation.data?.account_exists && session.isPending)) {
    return <LinkChecking title={TITLE} what={WHAT} />;
  }
  if (invitation.isError) {
    return (
      <LinkCheckFailed
        title={TITLE}
        what={WHAT}
        error={invitation.error}
        onRetry={() => void invitation.refetch()}
      />
    );
  }

  const view = invitation.data;
  const declineButton = (
    <Button
      variant="outlined"
      size="large"
      onClick={onDecline}
      disabled={decline.isPending}
      loading={decline.isPending}
    >
      Decline
    </Button>
  );
  return (
    <AuthCard title={`Join ${view.organization_name}`} subtitle={invitationSentence(view)}>
      <Stack spacing={2.5}>
        {message ? <Alert severity="error">{message}</Alert> : null}
        <InvitationFacts view={view} signedIn={me !== null} />
        {view.account_exists ? (
          <ExistingAccount
            link={link}
            signedInAs={me?.username ?? null}
            failures={failures}
            decline={declineButton}
          />
        ) : (
          <NewAccountForm view={view} link={link} failures={failures} decline={declineButton} />
        )}
      </Stack>
    </AuthCard>
  );
}

/** To whom the invitation was sent and until when (in the reader's zone). */
function InvitationFacts({ view, signedIn }: { view: TInvitationView; signedIn: boolean }) {
  const { timeZone } = useAppSettings();
  const expires = formatDate(view.expires, signedIn ? timeZone : browserTimeZone());
  return (
    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
      This invitation was sent to {view.email} and expires on {expires}.
    </Typography>
  );
}

/** The address has an account: sign in as it (if not yet) and accept, or decline. */
function ExistingAccount({
  link,
  signedInAs,
  failures,
  decline,
}: {
  link: TInvitationLink;
  signedInAs: string | null;
  failures: Failures;
  decline: ReactNode;
}) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const accept = useAcceptInvitation();

  const buttons = (primary: ReactNode) => (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
      {primary}
      {decline}
    </Stack>
  );

  if (signedInAs === null) {
    return (
      <>
        <Typography>
          Your address already has a Coldtrace account: sign in with it to accept.
        </Typography>
        {buttons(
          <Button
            variant="contained"
            size="large"
            onClick={() => {
              // The login page comes back here once signed in.
              rememberRedirectTarget(pathname);
              void navigate('/login');
            }}
          >
            Sign in to accept
          </Button>,
        )}
      </>
    );
  }
  return (
    <>
      <Typography sx={{ overflowWrap: 'anywhere' }}>You are signed in as {signedInAs}.</Typography>
      {buttons(
        <Button
          variant="contained"
          size="large"
          loading={accept.isPending}
          onClick={() => {
            failures.onMessage(null);
            // On success the app goes to / in the new organization.
            accept.mutate(link, { onError: failureHandler(failures) });
          }}
        >
          Accept
        </Button>,
      )}
    </>
  );
}

/** The address has no account: the person chooses their username and password. */
function NewAccountForm({
  view,
  link,
  failures,
  decline,
}: {
  view: TInvitationView;
  link: TInvitationLink;
  failures: Failures;
  decline: ReactNode;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const register = useRegisterFromInvitation();
  const [values, setValues] = useState(() => invitationFormFrom(view));
  const [errors, setErrors] = useState<InvitationFormErrors>({});
  const working = register.isPending;

  const set = (field: InvitationField) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    failures.onMessage(null);
    const found = checkInvitationForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    register.mutate(
      {
        ...link,
        username: values.username.trim(),
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        new_password: values.new_password,
      },
      {
        onSuccess: async () => {
          // As after the welcome link: whoever this browser was signed in as is forgotten.
          await clearSession(queryClient);
          await navigate('/login', { replace: true, state: loginNoticeState(ACCOUNT_READY) });
        },
        onError: (error) => {
          const fields = isApiError(error) ? invitationFieldErrors(error.fields) : {};
          if (Object.keys(fields).length > 0 && !deadLinkMessage(error)) setErrors(fields);
          else failureHandler(failures)(error);
        },
      },
    );
  };

  const text = (field: 'username' | 'first_name' | 'last_name', label: string, auto: string) => (
    <TextField
      id={`invitation-${field}`}
      label={label}
      name={field}
      autoComplete={auto}
      fullWidth
      required
      value={values[field]}
      onChange={(event) => set(field)(event.target.value)}
      error={Boolean(errors[field])}
      helperText={errors[field]}
      disabled={working}
    />
  );

  return (
    <Stack component="form" noValidate spacing={2.5} onSubmit={onSubmit} aria-busy={working}>
      <Typography>Create your account to accept: choose your username and a password.</Typography>
      {text('username', 'Username', 'username')}
      {text('first_name', 'First name', 'given-name')}
      {text('last_name', 'Last name', 'family-name')}
      <NewPasswordFields
        idPrefix="invitation"
        password={values.new_password}
        confirmation={values.new_password_confirm}
        onPassword={set('new_password')}
        onConfirmation={set('new_password_confirm')}
        errors={errors}
        disabled={working}
      />
      <SubmitButton working={working}>Create account and join</SubmitButton>
      {decline}
    </Stack>
  );
}

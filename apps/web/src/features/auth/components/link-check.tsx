import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../../../components/error-handler';
import { AuthCard } from './auth-card';

/** A secret link (reset, welcome, invitation) being checked on arrival. */
export function LinkChecking({ title, what = 'your link' }: { title: string; what?: string }) {
  return (
    <AuthCard title={title}>
      <Stack role="status" direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <CircularProgress size={20} aria-hidden />
        <Typography>Checking {what}…</Typography>
      </Stack>
    </AuthCard>
  );
}

/** Checking the link failed for another reason than a dead link: what failed, and a retry. */
export function LinkCheckFailed({
  title,
  what = 'your link',
  error,
  onRetry,
}: {
  title: string;
  what?: string;
  error: unknown;
  onRetry: () => void;
}) {
  return (
    <AuthCard title={title}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            Retry
          </Button>
        }
      >
        Checking {what} failed: {errorMessage(error)}
      </Alert>
    </AuthCard>
  );
}

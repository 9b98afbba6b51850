import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { errorMessage } from './error-handler';

/**
 * What failed to load, why, and a retry (ui.md: "errors say what failed and
 * offer a retry").
 */
export function LoadError({
  what,
  error,
  onRetry,
  retrying = false,
}: {
  /** What could not be loaded, e.g. "the products". */
  what: string;
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <Alert
      severity="error"
      variant="outlined"
      action={
        <Button color="inherit" size="small" onClick={onRetry} loading={retrying}>
          Retry
        </Button>
      }
    >
      <AlertTitle>Could not load {what}</AlertTitle>
      {errorMessage(error)}
    </Alert>
  );
}

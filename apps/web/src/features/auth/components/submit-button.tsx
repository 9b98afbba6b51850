import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { ReactNode } from 'react';

/** The large submit button of the signed-out forms, with a spinner while working. */
export function SubmitButton({ working, children }: { working: boolean; children: ReactNode }) {
  return (
    <Button
      type="submit"
      variant="contained"
      size="large"
      disabled={working}
      startIcon={working ? <CircularProgress size={18} color="inherit" aria-hidden /> : null}
    >
      {children}
    </Button>
  );
}

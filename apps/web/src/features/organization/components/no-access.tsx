import LockOutlined from '@mui/icons-material/LockOutlined';
import Button from '@mui/material/Button';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../../components/empty-state';

/** What an administration page says to someone without its permission. */
export function NoAccess({ children }: { children: ReactNode }) {
  return (
    <EmptyState
      icon={<LockOutlined />}
      action={
        <Button component={RouterLink} to="/" variant="outlined">
          Go to the dashboard
        </Button>
      }
    >
      {children}
    </EmptyState>
  );
}

import Button from '@mui/material/Button';
import { Link as RouterLink, useLocation } from 'react-router';
import { EmptyState } from './empty-state';
import { Page } from './page';

/** Spec section 2: any other path shows a not-found style page. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Page title="Page not found">
      <EmptyState
        action={
          <Button component={RouterLink} to="/" variant="contained">
            Go to the dashboard
          </Button>
        }
      >
        There is no page at <strong style={{ overflowWrap: 'anywhere' }}>{pathname}</strong>. Check
        the address, or start again from the dashboard.
      </EmptyState>
    </Page>
  );
}

export default NotFoundPage;

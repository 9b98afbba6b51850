import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';

/** The "Back to Log In" link under the signed-out forms. */
export function BackToLogin() {
  return (
    <Link component={RouterLink} to="/login" variant="body2" sx={{ alignSelf: 'center' }}>
      Back to Log In
    </Link>
  );
}

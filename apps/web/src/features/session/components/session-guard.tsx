import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isLoggedIn, isPublicPath, rememberRedirectTarget } from '../../../lib/session';
import { useSession } from '../api/get-session';

/**
 * Spec section 2, "Session guard": a visitor who is not signed in (no user,
 * missing info, or locked) is sent to /login, except on the signed-out pages;
 * the path being left is remembered as the post-login target.
 */
export function SessionGuard({ children, pending }: { children: ReactNode; pending: ReactNode }) {
  const { pathname } = useLocation();
  const session = useSession();
  if (isPublicPath(pathname)) return children;
  if (session.isPending) return pending;
  if (!isLoggedIn(session.data)) return <RedirectToLogin />;
  return children;
}

function RedirectToLogin() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    rememberRedirectTarget(`${pathname}${search}`);
  }, [pathname, search]);
  return <Navigate to="/login" replace />;
}

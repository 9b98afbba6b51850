import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { TUser } from '@coldtrace/contract';
import {
  firstPathSegment,
  isLoggedIn,
  isPublicPath,
  rememberRedirectTarget,
} from '../../../lib/session';
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
  if (!isLoggedIn(session.data)) return <RedirectRemembering to="/login" />;
  if (mustAgreeToTerms(session.data, pathname)) return <RedirectRemembering to="/tou-agreement" />;
  return children;
}

/** Pages a signed-in user who has not agreed to the active terms may still see. */
const TERMS_FREE_SEGMENTS = ['tou-agreement', 'terms-of-use', 'privacy-policy', 'changelog'];

/**
 * A user who has not agreed to the active terms is taken to /tou-agreement
 * and can use nothing else until agreeing (the server refuses the other calls).
 */
export function mustAgreeToTerms(user: TUser, pathname: string): boolean {
  return !user.has_agreed_to_tos && !TERMS_FREE_SEGMENTS.includes(firstPathSegment(pathname));
}

/** Goes to `to`, remembering the path being left as the post-login (or post-agreement) target. */
function RedirectRemembering({ to }: { to: string }) {
  const { pathname, search } = useLocation();
  useEffect(() => {
    rememberRedirectTarget(`${pathname}${search}`);
  }, [pathname, search]);
  return <Navigate to={to} replace />;
}

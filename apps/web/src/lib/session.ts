import {
  PUBLIC_FIRST_SEGMENTS,
  type TOrg,
  type TPermissionName,
  type TUser,
} from '@coldtrace/contract';

/**
 * Session helpers without React (spec section 2, "Session guard", and section 4):
 * who counts as signed in, which pages a visitor may see signed out, and the
 * remembered post-login redirect target.
 */

/** sessionStorage key of the post-login redirect target (path plus search). */
export const REDIRECT_TARGET_KEY = 'coldtrace.redirectAfterLogin';

export type RedirectStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** First segment of a path: `/passwordreset/a/b` -> `passwordreset`, `/` -> ``. */
export function firstPathSegment(pathname: string): string {
  return pathname.replace(/^\/+/, '').split('/')[0] ?? '';
}

/**
 * Ours, not the spec's (issue 34): the invitation link page (`/invitation/{uuid}/{token}`)
 * must open for a visitor who is not signed in yet. Unlike the spec's signed-out pages it
 * may be the post-login target: "Sign in to accept" comes back to it.
 */
const OUR_PUBLIC_FIRST_SEGMENTS: readonly string[] = ['invitation'];

/** The spec's signed-out pages (login, forgotpassword, ..., welcome). */
function isSignedOutPage(pathname: string): boolean {
  return (PUBLIC_FIRST_SEGMENTS as readonly string[]).includes(firstPathSegment(pathname));
}

/** True on pages a signed-out visitor may see: the spec's signed-out pages and the invitation. */
export function isPublicPath(pathname: string): boolean {
  return (
    isSignedOutPage(pathname) || OUR_PUBLIC_FIRST_SEGMENTS.includes(firstPathSegment(pathname))
  );
}

/** The browser's sessionStorage, or null when it is not available (private modes, tests). */
export function browserSessionStorage(): RedirectStorage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Remembers where to go after sign-in. The signed-out pages are never remembered. */
export function rememberRedirectTarget(
  target: string,
  storage: RedirectStorage | null = browserSessionStorage(),
): void {
  if (!isSafeTarget(target)) return;
  try {
    storage?.setItem(REDIRECT_TARGET_KEY, target);
  } catch {
    // Storage full or denied: the user lands on / after sign-in instead.
  }
}

/** Forgets the remembered target (after an explicit sign-out). */
export function clearRedirectTarget(
  storage: RedirectStorage | null = browserSessionStorage(),
): void {
  try {
    storage?.removeItem(REDIRECT_TARGET_KEY);
  } catch {
    // Nothing to forget.
  }
}

/** Returns the remembered target (or `/`) and forgets it. */
export function takeRedirectTarget(
  storage: RedirectStorage | null = browserSessionStorage(),
): string {
  let target: string | null;
  try {
    target = storage?.getItem(REDIRECT_TARGET_KEY) ?? null;
    storage?.removeItem(REDIRECT_TARGET_KEY);
  } catch {
    return '/';
  }
  return target != null && isSafeTarget(target) ? target : '/';
}

/** A same-origin path that is not itself a signed-out page (the invitation page may be one). */
function isSafeTarget(target: string): boolean {
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return false;
  const pathname = target.split(/[?#]/)[0] ?? '/';
  return !isSignedOutPage(pathname);
}

/**
 * Spec sections 2 and 4: a user whose info is missing, or who is locked, is
 * treated as logged out.
 */
export function isLoggedIn(user: TUser | null | undefined): user is TUser {
  return user != null && user.is_locked !== true;
}

/** The organization of the session: `last_session_org_id` looked up in `organizations`. */
export function sessionOrganization(user: TUser | null | undefined): TOrg | undefined {
  if (!user?.last_session_org_id) return undefined;
  return user.organizations?.find((org) => org.id === user.last_session_org_id);
}

/** True when the user holds the permission in the session organization (any one of a list). */
export function hasPermission(
  user: TUser | null | undefined,
  permission: TPermissionName | readonly TPermissionName[],
): boolean {
  if (!isLoggedIn(user)) return false;
  const wanted: readonly string[] = typeof permission === 'string' ? [permission] : permission;
  return wanted.some((name) => user.current_session_permissions.includes(name));
}

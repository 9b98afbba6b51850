/** The signed-in user: session query, guard, sign-out and organization switch. */
export { getSession, sessionQueryOptions, useCurrentUser, useSession } from './api/get-session';
export { logout, useLogout } from './api/logout';
export { switchOrganization, useSwitchOrganization } from './api/switch-organization';
export { SessionGuard } from './components/session-guard';
export { SessionSync } from './components/session-sync';
export {
  clearSession,
  replaceSessionUser,
  sessionQueryKey,
  updateSessionUser,
  type SessionUser,
} from './session-cache';

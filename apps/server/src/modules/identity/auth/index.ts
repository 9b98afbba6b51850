/**
 * The auth module's entry: other modules import it from here only (issue 12).
 */
export {
  clearAccountFailures,
  failureStats,
  forgetAttemptsBefore,
  lockAttemptKeys,
  permissionsIn,
  recordAttempts,
  setSessionOrganization,
  type AttemptKey,
} from './repository';
export { nextDeviceCookie, setDeviceCookie } from './device-cookie';
export {
  FAILURE_MEMORY_MS,
  createPasswordGuard,
  throttledError,
  type PasswordClient,
} from './throttle';
export { constantTimeEqual, isTokenShaped, newToken, sessionIdOf } from './cookies';
export { generatePassword } from './passwords';
export { presentUser } from './presenter';
export { createPasswordHasher, hashPassword } from './passwords';
export { principalResolver, type Principal } from './principal';

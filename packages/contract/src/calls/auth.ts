import { z } from 'zod';
import { defineCall } from '../call';
import { ZOrg, ZOrgSwitch } from '../entities/org';
import {
  ZLoginCredentials,
  ZOrgLevelUserSettings,
  ZOrgLevelUserSettingsUpdate,
  ZPrivacyPolicy,
  ZTermsOfService,
  ZUser,
  ZUserSettings,
  ZUserSettingsUpdate,
} from '../entities/user';

/** Calls of spec section 7, "Authentication and account", served by the foundation. */
export const authCsrf = defineCall({
  operationId: 'authCsrf',
  method: 'GET',
  path: '/api/auth/csrf/',
  summary: 'Set the csrftoken cookie and return its value',
  tag: 'auth',
  auth: 'public',
  reply: z.object({ csrftoken: z.string() }),
});

export const authSessionGet = defineCall({
  operationId: 'authSessionGet',
  method: 'GET',
  path: '/api/auth/session/',
  summary: 'The signed-in user',
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  reply: ZUser,
});

export const authSessionSwitch = defineCall({
  operationId: 'authSessionSwitch',
  method: 'PATCH',
  path: '/api/auth/session/',
  summary: 'Switch the session to another organization of the user; the reply is the full user',
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  body: ZOrgSwitch,
  reply: ZUser,
});

export const authLogin = defineCall({
  operationId: 'authLogin',
  method: 'POST',
  path: '/api/auth/login/',
  summary: 'Sign in with e-mail or username and password; the reply is the full user',
  tag: 'auth',
  auth: 'public',
  body: ZLoginCredentials,
  reply: ZUser,
});

export const authLogout = defineCall({
  operationId: 'authLogout',
  method: 'GET',
  path: '/api/auth/logout/',
  summary: 'End the session (204)',
  description:
    'A GET as the spec names it, but with the session cookie it needs the X-CSRFToken header ' +
    'like a state-changing call (403 CSRF_FAILED without), so another site cannot sign the user out.',
  tag: 'auth',
  auth: 'public',
  csrf: true,
  reply: null,
});

export const authPublicLogin = defineCall({
  operationId: 'authPublicLogin',
  method: 'POST',
  path: '/api/auth/public-login/',
  summary: 'Sign in as the public account named by configuration (404 when none is configured)',
  tag: 'auth',
  auth: 'public',
  reply: ZUser,
});

export const authOrgs = defineCall({
  operationId: 'authOrgs',
  method: 'GET',
  path: '/api/auth/orgs/',
  summary: "The user's organizations",
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  reply: z.array(ZOrg),
});

export const authAdminOrgs = defineCall({
  operationId: 'authAdminOrgs',
  method: 'GET',
  path: '/api/auth/admin-orgs/',
  summary: 'The organizations the user administers (holds sysAdminUser in)',
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  reply: z.array(ZOrg),
});

export const authUserSettings = defineCall({
  operationId: 'authUserSettings',
  method: 'PATCH',
  path: '/api/auth/user-settings/',
  summary: 'Set the temperature unit or the time zone',
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  body: ZUserSettingsUpdate,
  reply: ZUserSettings,
});

export const authUserOrgSettings = defineCall({
  operationId: 'authUserOrgSettings',
  method: 'PATCH',
  path: '/api/auth/user-org-settings/',
  summary: 'Set the alarm e-mail flags for the session organization',
  tag: 'auth',
  auth: 'session',
  scope: 'organization',
  body: ZOrgLevelUserSettingsUpdate,
  reply: ZOrgLevelUserSettings,
});

export const authTosGet = defineCall({
  operationId: 'authTosGet',
  method: 'GET',
  path: '/api/auth/tos/',
  summary: 'The active terms of service (404 when none is published)',
  tag: 'auth',
  auth: 'public',
  reply: ZTermsOfService,
});

export const authPrivacyPolicyGet = defineCall({
  operationId: 'authPrivacyPolicyGet',
  method: 'GET',
  path: '/api/auth/privacy-policy/',
  summary: 'The active privacy policy (404 when none is published)',
  tag: 'auth',
  auth: 'public',
  reply: ZPrivacyPolicy,
});

export const authCalls = [
  authCsrf,
  authSessionGet,
  authSessionSwitch,
  authLogin,
  authLogout,
  authPublicLogin,
  authOrgs,
  authAdminOrgs,
  authUserSettings,
  authUserOrgSettings,
  authTosGet,
  authPrivacyPolicyGet,
] as const;

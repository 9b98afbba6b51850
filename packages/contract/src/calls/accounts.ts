import { z } from 'zod';
import { defineCall } from '../call';
import {
  ZContentForm,
  ZPasswordChange,
  ZPasswordResetConfirm,
  ZPasswordResetRequest,
  ZPrivacyPolicy,
  ZTermsOfService,
  ZTosAgreement,
  ZUser,
} from '../entities/user';

/**
 * Account calls of spec section 7 (issue 5): password reset and welcome links,
 * password change, terms of service and privacy policy. Paths the spec does not
 * give are listed in `docs/decisions/accounts.md`.
 */

export const authPasswordReset = defineCall({
  operationId: 'authPasswordReset',
  method: 'POST',
  path: '/api/auth/password-reset/',
  summary:
    'Request a password reset e-mail; the reply (204) is the same whether the address is known or not',
  tag: 'auth',
  auth: 'public',
  body: ZPasswordResetRequest,
  reply: null,
});

export const authPasswordResetConfirm = defineCall({
  operationId: 'authPasswordResetConfirm',
  method: 'POST',
  path: '/api/auth/password-reset-confirm/',
  summary:
    'Set a new password with the uuid and token of a reset or welcome link (204); the link then dies',
  tag: 'auth',
  auth: 'public',
  body: ZPasswordResetConfirm,
  reply: null,
});

/** uuid and token of a reset or welcome link, checked without using it up. */
export const ZPasswordResetLink = z.object({
  uuid: z.string().min(1),
  token: z.string().min(1),
});
export type TPasswordResetLink = z.infer<typeof ZPasswordResetLink>;

export const authPasswordResetValidate = defineCall({
  operationId: 'authPasswordResetValidate',
  method: 'POST',
  path: '/api/auth/password-reset-validate/',
  summary:
    'Check a reset or welcome link before the new password is typed (204 when usable, 400 otherwise); it stays usable',
  tag: 'auth',
  auth: 'public',
  body: ZPasswordResetLink,
  reply: null,
});

export const authPasswordChange = defineCall({
  operationId: 'authPasswordChange',
  method: 'POST',
  path: '/api/auth/password-change/',
  summary:
    "Change the signed-in user's password; the user's other sessions end and reset links die. The reply is the full user",
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  body: ZPasswordChange,
  reply: ZUser,
});

export const authTosPost = defineCall({
  operationId: 'authTosPost',
  method: 'POST',
  path: '/api/auth/tos/',
  summary:
    'Publish new terms of service (server administrators); every user must agree to them again',
  tag: 'auth',
  auth: 'session',
  scope: 'server',
  serverAdmin: 'only',
  body: ZContentForm,
  reply: ZTermsOfService,
});

export const authPrivacyPolicyPost = defineCall({
  operationId: 'authPrivacyPolicyPost',
  method: 'POST',
  path: '/api/auth/privacy-policy/',
  summary: 'Publish a new privacy policy (server administrators)',
  tag: 'auth',
  auth: 'session',
  scope: 'server',
  serverAdmin: 'only',
  body: ZContentForm,
  reply: ZPrivacyPolicy,
});

export const authTosAgreement = defineCall({
  operationId: 'authTosAgreement',
  method: 'POST',
  path: '/api/auth/tos-agreement/',
  summary: 'Agree to the active terms of service (by id); the reply is the terms agreed to',
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  body: ZTosAgreement,
  reply: ZTermsOfService,
});

export const accountCalls = [
  authPasswordReset,
  authPasswordResetConfirm,
  authPasswordResetValidate,
  authPasswordChange,
  authTosPost,
  authPrivacyPolicyPost,
  authTosAgreement,
] as const;

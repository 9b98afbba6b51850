import { defineCall } from '../call';
import {
  ZRecoveryCodes,
  ZSecondFactorConfirm,
  ZSecondFactorEnrolment,
  ZSecondFactorProof,
  ZSecondFactorReset,
  ZSecondFactorResetDone,
  ZSecondFactorStart,
  ZSecondFactorStatus,
} from '../entities/second-factor';

/**
 * The signed-in user's second factor (issue 37 item 7; ours, beyond the spec):
 * enrol a TOTP authenticator, confirm it with a first code, new recovery
 * codes, disable. Decisions: docs/decisions/second-factor.md.
 */
const BASE = '/api/auth/second-factor/';

export const authSecondFactorGet = defineCall({
  operationId: 'authSecondFactorGet',
  method: 'GET',
  path: BASE,
  summary: "The user's second factor, and whether the session organization requires it",
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  reply: ZSecondFactorStatus,
});

export const authSecondFactorEnrol = defineCall({
  operationId: 'authSecondFactorEnrol',
  method: 'POST',
  path: `${BASE}enrol/`,
  summary: 'Start enrolling an authenticator app (password again): a new secret and its QR code',
  description:
    'Nothing is asked for until the enrolment is confirmed with a first code. Starting again ' +
    'replaces an unconfirmed secret; an enabled factor must be disabled first (409).',
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  body: ZSecondFactorStart,
  reply: ZSecondFactorEnrolment,
});

export const authSecondFactorConfirm = defineCall({
  operationId: 'authSecondFactorConfirm',
  method: 'POST',
  path: `${BASE}confirm/`,
  summary:
    'Confirm the enrolment with a first code: the factor is then active; answers 10 recovery codes, shown once',
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  body: ZSecondFactorConfirm,
  reply: ZRecoveryCodes,
});

export const authSecondFactorRecoveryCodes = defineCall({
  operationId: 'authSecondFactorRecoveryCodes',
  method: 'POST',
  path: `${BASE}recovery-codes/`,
  summary: 'New recovery codes (password and a current code): the old ones stop working',
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  body: ZSecondFactorProof,
  reply: ZRecoveryCodes,
});

export const authSecondFactorDisable = defineCall({
  operationId: 'authSecondFactorDisable',
  method: 'POST',
  path: `${BASE}disable/`,
  summary: 'Disable the second factor (password and a current code or a recovery code)',
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  body: ZSecondFactorProof,
  reply: ZSecondFactorStatus,
});

export const authSecondFactorReset = defineCall({
  operationId: 'authSecondFactorReset',
  method: 'POST',
  path: `${BASE}reset/`,
  summary:
    "Remove another person's second factor (server administrators: their own password and a reason), so that someone who lost both their authenticator and their recovery codes can enrol again",
  description:
    "Audited in each of the person's organizations with the reason. Signatures given with the " +
    'removed factor keep saying so. 404 for an unknown user, 409 when none is enrolled.',
  tag: 'server-admin',
  auth: 'session',
  scope: 'server',
  serverAdmin: 'only',
  body: ZSecondFactorReset,
  reply: ZSecondFactorResetDone,
});

export const secondFactorCalls = [
  authSecondFactorGet,
  authSecondFactorEnrol,
  authSecondFactorConfirm,
  authSecondFactorRecoveryCodes,
  authSecondFactorDisable,
  authSecondFactorReset,
] as const;

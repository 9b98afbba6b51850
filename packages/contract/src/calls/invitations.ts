import { z } from 'zod';
import { defineCall } from '../call';
import {
  ZInvitation,
  ZInvitationLink,
  ZInvitationRegister,
  ZInvitationRevoke,
  ZInvitationView,
} from '../entities/invitation';

/**
 * Invitations (issue 34): joining an organization needs the person's consent.
 * `POST /api/auth/users/` sends an invitation; the person opens the link
 * (`/invitation/{uuid}/{token}`), and either creates an account or, when their
 * address already has one, signs in and accepts. See
 * `docs/decisions/administration.md`.
 */

export const authInvitationsList = defineCall({
  operationId: 'authInvitationsList',
  method: 'GET',
  path: '/api/auth/invitations/',
  summary:
    'The pending invitations of the session organization (not accepted, declined, revoked or expired)',
  tag: 'users',
  auth: 'session',
  scope: 'organization',
  permission: 'sysAdminUser',
  reply: z.array(ZInvitation),
});

export const authInvitationRevoke = defineCall({
  operationId: 'authInvitationRevoke',
  method: 'POST',
  path: '/api/auth/invitation-revoke/',
  summary: 'Revoke a pending invitation of the session organization (204, audited); its link dies',
  tag: 'users',
  auth: 'session',
  scope: 'organization',
  permission: 'sysAdminUser',
  body: ZInvitationRevoke,
  reply: null,
});

export const authInvitationValidate = defineCall({
  operationId: 'authInvitationValidate',
  method: 'POST',
  path: '/api/auth/invitation-validate/',
  summary:
    'What an invitation link offers (organization, role, whether the address has an account); 400 when the link is not usable. It stays usable',
  tag: 'auth',
  auth: 'public',
  body: ZInvitationLink,
  reply: ZInvitationView,
});

export const authInvitationAccept = defineCall({
  operationId: 'authInvitationAccept',
  method: 'POST',
  path: '/api/auth/invitation-accept/',
  summary:
    "Accept an invitation as the signed-in person it was sent to (204): they become a member with the invitation's role, and the session switches to that organization",
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  body: ZInvitationLink,
  reply: null,
});

export const authInvitationRegister = defineCall({
  operationId: 'authInvitationRegister',
  method: 'POST',
  path: '/api/auth/invitation-register/',
  summary:
    'Accept an invitation by creating the account it was sent to, with a username and password of the invited person (204); then sign in',
  tag: 'auth',
  auth: 'public',
  body: ZInvitationRegister,
  reply: null,
});

export const authInvitationDecline = defineCall({
  operationId: 'authInvitationDecline',
  method: 'POST',
  path: '/api/auth/invitation-decline/',
  summary: 'Decline an invitation (204, audited in the inviting organization); its link dies',
  tag: 'auth',
  auth: 'public',
  body: ZInvitationLink,
  reply: null,
});

export const invitationCalls = [
  authInvitationsList,
  authInvitationRevoke,
  authInvitationValidate,
  authInvitationAccept,
  authInvitationRegister,
  authInvitationDecline,
] as const;

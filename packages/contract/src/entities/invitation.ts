import { z } from 'zod';
import { ZUserSmall } from './user';

/**
 * An invitation to join an organization (issue 34): what an organization's
 * administrator sees of a person they registered until that person accepts.
 * It names what the administrator typed, never anything of an account the
 * e-mail address may already have.
 */
export const ZInvitation = z
  .object({
    id: z.string(),
    organization_id: z.string(),
    email: z.string(),
    /** The username the administrator suggested; the invited person may choose another. */
    username: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    role_id: z.string(),
    role_name: z.string(),
    /** Printed name of the administrator who sent it. */
    invited_by: z.string(),
    created: z.string(),
    expires: z.string(),
  })
  .meta({ id: 'Invitation' });
export type TInvitation = z.infer<typeof ZInvitation>;

/**
 * The reply of `POST /api/auth/users/`. An organization's administrator always
 * gets `invited` with the invitation, whether or not the address has an account
 * (so registering reveals nothing); a server administrator adds the person
 * directly and gets `added` with the user.
 */
export const ZUserRegistration = z
  .object({
    status: z.enum(['invited', 'added']),
    invitation: ZInvitation.nullable(),
    user: ZUserSmall.nullable(),
  })
  .meta({ id: 'UserRegistration' });
export type TUserRegistration = z.infer<typeof ZUserRegistration>;

/** The id and secret token of an invitation link (`/invitation/{uuid}/{token}`). */
export const ZInvitationLink = z.object({
  uuid: z.string().min(1),
  token: z.string().min(1),
});
export type TInvitationLink = z.infer<typeof ZInvitationLink>;

/** What the invited person sees on the invitation page. */
export const ZInvitationView = z
  .object({
    organization_name: z.string(),
    role_name: z.string(),
    invited_by: z.string(),
    email: z.string(),
    username: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    /** The address already has an account: sign in as it and accept; else create the account. */
    account_exists: z.boolean(),
    expires: z.string(),
  })
  .meta({ id: 'InvitationView' });
export type TInvitationView = z.infer<typeof ZInvitationView>;

/** Accepting with a new account: the invited person chooses their username and password. */
export const ZInvitationRegister = ZInvitationLink.extend({
  username: z.string().trim().min(1).max(150),
  first_name: z.string().trim().min(1).max(150),
  last_name: z.string().trim().min(1).max(150),
  new_password: z.string().min(1),
});
export type TInvitationRegister = z.infer<typeof ZInvitationRegister>;

/** Revoking a pending invitation of the session organization. */
export const ZInvitationRevoke = z.object({ invitation_id: z.string().min(1) });
export type TInvitationRevoke = z.infer<typeof ZInvitationRevoke>;
